"""The importer's type facts: the integer types it follows, vector components; the CUDA type names'
element types are the model's (:mod:`bankexplorer.model.cuda_types`)."""

from __future__ import annotations

from ..model.cuda_types import ALIASES, dtype_of, normalize, size_of  # noqa: F401 - the importer's names

#: integer types a local variable can have for the importer to follow its value
INTEGER_TYPES = {
    "int", "unsigned", "unsigned int", "signed", "signed int", "short", "unsigned short", "long", "long int",
    "unsigned long", "long long", "unsigned long long", "int32_t", "uint32_t", "int64_t", "uint64_t",
    "int16_t", "uint16_t", "size_t", "uint", "auto", "char", "unsigned char", "signed char", "int8_t", "uint8_t",
    "ptrdiff_t", "index_t", "bool",
}

#: vector component names and their position
COMPONENTS = {"x": 0, "y": 1, "z": 2, "w": 3}


def components(name: str) -> int:
    """How many x/y/z/w components a vector type has (1 for scalars)."""
    n = normalize(name)
    if n and n[-1].isdigit() and n[-1] in "1248" and not n.endswith(("int8", "int16", "int32", "int64",
                                                                       "_t", "bfloat16")):
        return int(n[-1])
    return 1
