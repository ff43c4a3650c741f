"""LibCST transforms, variant generation and equivalence verification."""
