"""The headless Plasma's screen, as pixels: Xvfb's frame buffer, which Xvfb keeps in a file.

kwin_wayland draws its output into a window of Xvfb (its X11 backend); `Xvfb -fbdir DIR` maps the
screen's memory to DIR/Xvfb_screen0, an XWD image, so reading that file is a capture with no
client and no extension involved. KWin's own screenshot interface (org.kde.KWin.ScreenShot2) is
an effect that needs OpenGL compositing, which has no device here.
"""

import struct
import zlib

XWD_HEADER = struct.Struct('>25I')


class Capture:
    """One frame: width, height and rows of 32-bit pixels (blue, green, red, unused: Xvfb's depth 24)."""

    def __init__(self, width, height, stride, pixels):
        self.width, self.height, self.stride, self.pixels = width, height, stride, pixels

    def row(self, y, x0=0, x1=None):
        return self.pixels[y * self.stride + x0 * 4:y * self.stride + (self.width if x1 is None else x1) * 4]

    def colours(self, box):
        """How many different colours the box (x0, y0, x1, y1) has: 1 for a blank area."""
        x0, y0, x1, y1 = box
        seen = set()
        for y in range(y0, y1):
            row = self.row(y, x0, x1)
            seen.update(row[i:i + 3] for i in range(0, len(row), 4))
        return len(seen)

    def write_png(self, path, box):
        """The box (x0, y0, x1, y1) as an RGB PNG."""
        x0, y0, x1, y1 = box
        lines = []
        for y in range(y0, y1):
            bgrx = self.row(y, x0, x1)
            rgb = bytearray(len(bgrx) // 4 * 3)
            rgb[0::3], rgb[1::3], rgb[2::3] = bgrx[2::4], bgrx[1::4], bgrx[0::4]
            lines.append(b'\0' + bytes(rgb))  # filter type 0 for each line

        def chunk(kind, data):
            return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
        header = struct.pack('>IIBBBBB', x1 - x0, y1 - y0, 8, 2, 0, 0, 0)  # 8 bits, RGB
        with open(path, 'wb') as f:
            f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', header) + chunk(b'IDAT', zlib.compress(b''.join(lines), 9))
                    + chunk(b'IEND', b''))


def capture(path):
    """The frame in Xvfb's screen file (an XWD image: a header, the window's name, a colour map, pixels)."""
    with open(path, 'rb') as f:
        data = f.read()
    fields = XWD_HEADER.unpack_from(data)
    header_size, _, pixmap_format, _, width, height, _, byte_order = fields[:8]
    bits_per_pixel, stride, red_mask, colour_entries = fields[11], fields[12], fields[14], fields[19]
    if (pixmap_format, byte_order, bits_per_pixel, red_mask) != (2, 0, 32, 0xff0000):
        raise ValueError(f'{path}: not a 32-bit little-endian ZPixmap XWD image')
    start = header_size + colour_entries * 12
    return Capture(width, height, stride, data[start:start + stride * height])


def changed_box(before, after, region):
    """The smallest box (x0, y0, x1, y1) holding every pixel of region (a box) that differs between
    two frames, or None."""
    rx0, ry0, rx1, ry1 = region
    box = None
    for y in range(ry0, ry1):
        a, b = before.row(y, rx0, rx1), after.row(y, rx0, rx1)
        if a == b:
            continue
        diff = int.from_bytes(a, 'big') ^ int.from_bytes(b, 'big')
        first = rx0 + (len(a) * 8 - diff.bit_length()) // 8 // 4
        last = rx0 + (len(a) - 1 - ((diff & -diff).bit_length() - 1) // 8) // 4
        box = (first, y, last + 1, y + 1) if box is None else \
            (min(box[0], first), box[1], max(box[2], last + 1), y + 1)
    return box
