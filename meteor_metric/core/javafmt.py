"""Java number semantics that METEOR's output depends on."""

from __future__ import annotations

import math
from decimal import Decimal

def java_double_str(x: float) -> str:
    """Format like Java's ``Double.toString`` (shortest digits): ``19.0``, ``0.85``, ``9.5E-4``, ``1.0E7``."""
    if type(x) is int and -10_000_000 < x < 10_000_000:  # statistics: exact as doubles, no exponent
        return f"{x}.0"
    x = float(x)
    if 1e-3 <= abs(x) < 1e7:
        return repr(x)  # Python's repr is positional and shortest here, like the general path below
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0.0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    sign = "-" if x < 0 else ""
    digits, exponent = _shortest_digits(abs(x))
    if 1e-3 <= abs(x) < 1e7:
        point = exponent + 1  # digits before the decimal point
        if point <= 0:
            return f"{sign}0.{'0' * -point}{digits}"
        if point >= len(digits):
            return f"{sign}{digits}{'0' * (point - len(digits))}.0"
        return f"{sign}{digits[:point]}.{digits[point:]}"
    mantissa = digits[0] + "." + (digits[1:] or "0")
    return f"{sign}{mantissa}E{exponent}"


def _shortest_digits(x: float) -> tuple[str, int]:
    """Shortest round-trip significant digits of a positive finite float and its decimal exponent."""
    d = Decimal(repr(x))
    digits = "".join(map(str, d.as_tuple().digits)).rstrip("0") or "0"
    return digits, d.adjusted()


def java_div(a: float, b: float) -> float:
    """Java double division: ``x/0`` is ``±inf`` and ``0/0`` is NaN instead of an exception."""
    if b == 0.0:
        if a == 0.0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def java_string_hash(s: str) -> int:
    """Java ``String.hashCode`` as an unsigned 32-bit value (31*h + c over UTF-16 code units)."""
    h = 0
    if s.isascii():
        for ch in s:
            h = (31 * h + ord(ch)) & 0xFFFFFFFF
        return h
    data = s.encode("utf-16-le", "surrogatepass")  # a lone surrogate is one code unit, as in Java
    for k in range(0, len(data), 2):
        h = (31 * h + (data[k] | (data[k + 1] << 8))) & 0xFFFFFFFF
    return h


def utf16_len(s: str) -> int:
    """Java ``String.length()``: the number of UTF-16 code units."""
    return len(s) if s.isascii() else len(s.encode("utf-16-le", "surrogatepass")) // 2


def java_count_lines(text: str) -> int:
    """``len(java_split_lines(text))``, without making the lines."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.count("\n") + (text != "" and not text.endswith("\n"))


def java_split_lines(text: str) -> list[str]:
    """Lines as Java's ``BufferedReader.readLine`` returns them: breaks are \\n, \\r or \\r\\n only (a final
    break ends the last line)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines
