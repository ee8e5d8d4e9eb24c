"""The `evidence` command line, its rendering and the demo: the layer nothing imports."""
