"""Fatbin containers: the device code nvcc puts in a ``.fatbin``, an executable or a shared library.

A container (magic ``0xBA55ED50``) holds entries, each one architecture's code: an ELF (a cubin,
kind 2) or PTX text (kind 1), possibly compressed (LZ4 up to CUDA 12, flag ``0x2000``; Zstandard
from CUDA 12.8, flag ``0x8000``, the default for PTX in CUDA 13). An executable or a shared library
keeps its containers, one after the other, in its ``.nv_fatbin`` section (``__nv_relfatbin`` for
relocatable device code). Read here with ``struct``, without ``cuobjdump``.

Layouts (little-endian), as nvcc 11-13 write them:
  container: u32 magic, u16 version, u16 header size, u64 size of the entries that follow
  entry:     u16 kind, u16 -, u32 header size, u64 payload size (padded), u32 compressed size,
             u32 -, u16 minor, u16 major, u32 arch (90 for sm_90), u32 name offset, u32 name
             length, u64 flags, u64 -, u64 uncompressed size
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

FATBIN_MAGIC = struct.pack("<I", 0xBA55ED50)
KIND_PTX, KIND_ELF = 1, 2
_FLAG_LZ4, _FLAG_ZSTD = 0x2000, 0x8000
_HEADER = struct.Struct("<IHHQ")
_ENTRY = struct.Struct("<HHIQIIHHIIIQQQ")
#: the most an entry may grow to when decompressed (a hostile file claims anything)
MAX_ENTRY_BYTES = 512 << 20


class BinaryError(ValueError):
    """A file that is not the binary it claims to be, or holds no code that can be run here."""


@dataclass(frozen=True)
class Entry:
    kind: int  # KIND_PTX or KIND_ELF
    arch: int  # 90 for sm_90
    data: bytes  # uncompressed

    @property
    def label(self) -> str:
        return f"{'PTX' if self.kind == KIND_PTX else 'SASS'} for sm_{self.arch}"


def entries(blob: bytes, where: str = "the fatbin") -> list[Entry]:
    """Every entry of the containers in ``blob`` (one after another, each 8-byte aligned)."""
    out: list[Entry] = []
    off = 0
    while off + _HEADER.size <= len(blob):
        magic, _ver, head, size = _HEADER.unpack_from(blob, off)
        if magic != 0xBA55ED50:
            if not blob[off:].strip(b"\0"):
                break  # padding after the last container
            raise BinaryError(f"{where}: no fatbin container at byte {off:,} (a damaged file?)")
        end = off + head + size
        if end > len(blob):
            raise BinaryError(f"{where}: the container at byte {off:,} claims {size:,} bytes but the file ends "
                              f"{end - len(blob):,} bytes short (a truncated file?)")
        p = off + head
        while p + _ENTRY.size <= end:
            (kind, _u, ehead, esize, csize, _u2, _minor, _major, arch, _no, _nl, flags, _z,
             full) = _ENTRY.unpack_from(blob, p)
            if ehead < _ENTRY.size or p + ehead + esize > end:
                raise BinaryError(f"{where}: entry at byte {p:,} runs past its container (a damaged file?)")
            payload = blob[p + ehead:p + ehead + esize]
            if flags & (_FLAG_LZ4 | _FLAG_ZSTD):
                payload = _decompress(payload[:csize or esize], flags, full, where)
            if kind in (KIND_PTX, KIND_ELF):
                out.append(Entry(kind, arch, payload))
            p += ehead + esize
        off = -(-end // 8) * 8
    return out


def _decompress(data: bytes, flags: int, size: int, where: str) -> bytes:
    if size > MAX_ENTRY_BYTES:
        raise BinaryError(f"{where}: an entry claims {size:,} bytes uncompressed (more than "
                          f"{MAX_ENTRY_BYTES >> 20} MiB)")
    if flags & _FLAG_ZSTD:
        try:
            import zstandard
        except ImportError:
            raise BinaryError(f"{where}: its code is Zstandard-compressed (CUDA 12.8 and later) and the "
                              f"'zstandard' package is not installed: pip install zstandard") from None
        try:
            return zstandard.ZstdDecompressor().decompress(data, max_output_size=size or MAX_ENTRY_BYTES)
        except zstandard.ZstdError as e:
            raise BinaryError(f"{where}: its compressed code cannot be read ({e}; a damaged file?)") from None
    return lz4_block(data, size, where)


def _length(data: bytes, i: int, n: int) -> tuple[int, int]:
    """An LZ4 length: the token's 4 bits, and while they are 15, bytes added until one is not 255."""
    if n == 15:
        while True:
            b = data[i]
            i += 1
            n += b
            if b != 255:
                break
    return n, i


def lz4_block(data: bytes, size: int, where: str = "the fatbin") -> bytes:
    """An LZ4 block (no frame) decompressed to ``size`` bytes: literals then back-references."""
    out = bytearray()
    i, n = 0, len(data)
    try:
        while i < n:
            token = data[i]
            lit, i = _length(data, i + 1, token >> 4)
            out += data[i:i + lit]
            i += lit
            if i >= n or len(out) >= size:
                break
            back = data[i] | data[i + 1] << 8
            i += 2
            length, i = _length(data, i, token & 15)
            length += 4
            if back == 0 or back > len(out) or len(out) + length > max(size, 1) + 64:
                raise BinaryError(f"{where}: its compressed code cannot be read (a damaged file?)")
            start = len(out) - back
            if back >= length:
                out += out[start:start + length]
            else:
                for k in range(length):  # an overlapping copy repeats the bytes it has just written
                    out.append(out[start + k])
    except IndexError:
        raise BinaryError(f"{where}: its compressed code ends early (a truncated file?)") from None
    return bytes(out[:size])
