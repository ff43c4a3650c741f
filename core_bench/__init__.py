"""core-bench: does a language model really reason about code execution?"""

__version__ = "0.1.0"
