"""The bottom layer: what every layer above stands on and none of them owns. The errors
the product raises on purpose, the domain's shared words, writing an output file safely,
the tests' pause points, and what the package says of itself. It imports nothing of the
project and no third-party package."""
