"""CUDA type names -> the element types the model knows (``layout.DTYPES``).

The model only needs an element's size and a readable name; CUDA spells the same types in many
ways (``unsigned int``, ``uint32_t``, ``__nv_bfloat162``), so this table normalizes them. Both
readers of a kernel use it: the snippet importer and the executed kernel's pattern.
"""

from __future__ import annotations

from .layout import DTYPES

#: CUDA spelling -> DTYPES key (only where the spelling is not already a key)
ALIASES: dict[str, str] = {
    "signed char": "char", "int8_t": "int8", "uint8_t": "uint8", "uchar": "uint8",
    "short int": "short", "signed short": "short", "unsigned short int": "unsigned short",
    "int16_t": "int16", "uint16_t": "unsigned short", "ushort": "unsigned short",
    "nv_bfloat16": "__nv_bfloat16", "__nv_bfloat16_raw": "__nv_bfloat16", "__half_raw": "__half",
    "signed": "int", "signed int": "int", "int32_t": "int32", "uint32_t": "uint32", "uint": "uint32",
    "unsigned long": "uint64", "long": "int64", "long int": "int64", "unsigned long long": "uint64",
    "unsigned long long int": "uint64", "long long int": "long long", "int64_t": "int64", "uint64_t": "uint64",
    "size_t": "uint64",
    "__nv_bfloat162": "__half2", "nv_bfloat162": "__half2", "uchar4": "char4", "ushort2": "short2",
    "char2": "int16", "uchar2": "int16", "float1": "float", "int1": "int", "uint1": "uint32",
    "longlong1": "long long", "double1": "double", "ushort4": "short4", "char8": "int64",
    "ulonglong2": "longlong2", "float3": None, "int3": None,  # 12-byte types: no single access width
    # CuTe's and CUTLASS's element types
    "half_t": "__half", "cute::half_t": "__half", "cutlass::half_t": "__half",
    "bfloat16_t": "__nv_bfloat16", "cute::bfloat16_t": "__nv_bfloat16", "cutlass::bfloat16_t": "__nv_bfloat16",
    "tfloat32_t": "float", "cute::tfloat32_t": "float", "cutlass::tfloat32_t": "float",
}

def normalize(name: str) -> str:
    """``const  unsigned   int`` -> ``unsigned int`` (qualifiers dropped, spaces collapsed)."""
    words = [w for w in name.replace("*", " ").replace("&", " ").split()
             if w not in ("const", "volatile", "constexpr", "static", "__restrict__", "struct")]
    return " ".join(words)


def dtype_of(name: str) -> str | None:
    """The DTYPES key for a CUDA type name, or None when the model has no such element type."""
    n = normalize(name)
    if n in DTYPES:
        return n
    alias = ALIASES.get(n)
    return alias if alias in DTYPES else None


def size_of(name: str) -> int | None:
    d = dtype_of(name)
    return DTYPES[d] if d else None
