#!/usr/bin/env python3
"""Checks an HTML report as headless Chromium rendered it against the JSON report of the same log.

Usage: check_rendered_report.py REPORT.json DOM.html SCREENSHOT.png WIDTH HEIGHT

The DOM (chromium --dump-dom) must hold the title, one finding block per finding of the JSON
report with its rule, the link graph and a class matrix per communicator with links. The
screenshot (chromium --screenshot, decoded here with the standard library) must have the window's
size, show text, and show the colours the stylesheet gives to the severities and link classes
that the report has. Exit 0 when all holds, 1 otherwise, listing what failed.
"""
import json
import re
import struct
import sys
import zlib

# Stylesheet colours (src/report/html_report.cc, class_style.cc): what must be painted.
SEVERITY_FILL = {"error": (0xFE, 0xF2, 0xF2), "warning": (0xFF, 0xFB, 0xEB)}
CLASS_COLOR = {
    "NVL": (0x2E, 0x7D, 0x32), "NVLS": (0x1B, 0x5E, 0x20), "P2P": (0x15, 0x65, 0xC0),
    "SHM": (0xEF, 0x6C, 0x00), "NET/IB": (0x00, 0x83, 0x8F), "NET/Libfabric": (0x6A, 0x1B, 0x9A),
    "CollNet": (0x02, 0x77, 0xBD), "NET/Socket": (0xC6, 0x28, 0x28), "NET/other": (0x6D, 0x4C, 0x41),
}


def decode_png(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB/RGBA non-interlaced PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    width, height, depth, color_type, _, _, interlace = header
    if depth != 8 or color_type not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {color_type}")
    bpp = 3 if color_type == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        ftype, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 0xFF
            elif ftype == 2:
                line[i] = (line[i] + b) & 0xFF
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 0xFF
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def main(argv):
    report_path, dom_path, png_path, want_w, want_h = argv[1:6]
    with open(report_path, encoding="utf-8") as f:
        report = json.load(f)
    with open(dom_path, encoding="utf-8", errors="replace") as f:
        dom = f.read()
    problems = []

    # The DOM as the browser built it.
    if "<h1>ncclscope report</h1>" not in dom:
        problems.append("DOM: no report title")
    findings = report["findings"]
    blocks = re.findall(r'<div class="finding (error|warning|info)">', dom)
    if len(blocks) != len(findings):
        problems.append(f"DOM: {len(blocks)} finding blocks, the JSON report has {len(findings)}")
    if [f["severity"] for f in findings] != blocks:
        problems.append("DOM: finding severities differ from the JSON report's, in order")
    for f in findings:
        if f'<span class="rule">[{f["rule"]}]</span>' not in dom:
            problems.append(f"DOM: no finding of rule {f['rule']}")
    if '<svg class="graph"' not in dom:
        problems.append("DOM: no link graph")
    comms_with_links = [c for c in report["communicators"] if c.get("link_counts")]
    if comms_with_links and dom.count('<table class="matrix"') < 1:
        problems.append("DOM: no class matrix")

    # The picture.
    try:
        width, height, rows = decode_png(png_path)
    except (OSError, ValueError) as e:
        print(f"screenshot: {e}")
        return 1
    if (width, height) != (int(want_w), int(want_h)):
        problems.append(f"screenshot is {width}x{height}, the window was {want_w}x{want_h}")
    counts = {}
    for row in rows:
        for px in row:
            counts[px] = counts.get(px, 0) + 1
    total = width * height
    white = counts.get((255, 255, 255), 0)
    dark = sum(n for px, n in counts.items() if max(px) < 80)
    print(f"screenshot {width}x{height}: {len(counts)} colours, "
          f"{100 * (total - white) / total:.1f}% not white, {dark} dark (text) pixels")
    if total - white < total // 50:
        problems.append("screenshot: almost blank")
    if dark < 2000:
        problems.append("screenshot: no text rendered")
    classes = set()
    for c in comms_with_links:
        classes.update(c["link_counts"].keys())
    for cls in sorted(classes):
        color = CLASS_COLOR.get(cls)
        if color and counts.get(color, 0) < 50:
            problems.append(f"screenshot: the colour of {cls} links (#{bytes(color).hex()}) is not painted")
    for sev, color in SEVERITY_FILL.items():
        if any(f["severity"] == sev for f in findings) and counts.get(color, 0) < 500:
            problems.append(f"screenshot: no {sev} finding block painted (#{bytes(color).hex()})")

    for p in problems:
        print(p)
    if not problems:
        print(f"rendered report checked: {len(findings)} findings, link classes {sorted(classes)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
