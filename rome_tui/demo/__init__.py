"""The demo set shipped in the package and the script that builds it (``python -m rome_tui.demo.build``)."""
