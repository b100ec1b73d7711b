"""Screens and modals of the review app."""
