"""The code's files that the source checks read (test_no_figures.py,
test_file_sizes.py): C sources and headers, kernels and the build's
templates under src/ and cl/."""
import os

SUFFIXES = (".c", ".h", ".cl", ".in")


def source_files(root):
    """(path relative to root, path) of each file, in a stable order."""
    for top in ("src", "cl"):
        for dirpath, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(files):
                if name.endswith(SUFFIXES):
                    path = os.path.join(dirpath, name)
                    yield os.path.relpath(path, root), path
