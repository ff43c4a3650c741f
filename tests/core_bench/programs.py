"""Small programs that several probe tests ask questions about."""

FIZZ = (
    "def f(n):\n"
    "    count = 0\n"
    "    for num in range(n):\n"
    "        if num % 11 == 0 or num % 13 == 0:\n"
    "            count += str(num).count('7')\n"
    "    return count\n"
)
"""Counts the sevens in multiples of 11 or 13 below n: a loop, a compound branch, a state."""

EVEN_ODD = (
    "def f(xs):\n"
    "    s = 0\n"
    "    for x in xs:\n"
    "        if x % 2 == 0:\n"
    "            s += x\n"
    "        else:\n"
    "            s -= 1\n"
    "    return s\n"
)
EVEN_ODD_SWAPPED = (
    "def f(xs):\n"
    "    s = 0\n"
    "    for x in xs:\n"
    "        if x % 2 != 0:\n"
    "            s -= 1\n"
    "        else:\n"
    "            s += x\n"
    "    return s\n"
)
"""EVEN_ODD with its branches swapped (the test negated): lines 5 and 7 trade places."""
EVEN_ODD_SWAP_LINES = {2: [2], 3: [3], 4: [4], 5: [7], 7: [5], 8: [8]}
