"""The camera's eye: a photo of the table -> the cube faces -> their letters and ink colour.
It knows the cube sets (from the rules core), never the scores."""
