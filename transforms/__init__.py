"""LibCST transforms, variant generation and equivalence verification.

    from transforms import generate_variants, apply_transform, all_transforms

A transform rewrites a function without changing what it does ("equivalent") or changes it on
purpose ("mutant", a control). `generate_variants` chains transforms and keeps a variant only
when differential execution in the sandbox shows the same behaviour as the original on every
call (mutants: a different behaviour on some call).
"""

from transforms._artifacts import ARTIFACT_KINDS, count_artifacts, find_artifacts
from transforms._base import (
    FAMILIES,
    Family,
    Provenance,
    Transform,
    TransformResult,
    all_transforms,
    apply_transform,
    compose_provenance,
    get_transform,
)
from transforms._generate import (
    GenerationReport,
    Variant,
    VerificationResult,
    generate_variants,
    generate_variants_report,
    verify_equivalent,
)
from transforms._inputs import generate_call_outcomes, generate_calls
from transforms._metrics import cyclomatic_complexity, jaccard, tokens

__all__ = [
    "ARTIFACT_KINDS",
    "FAMILIES",
    "Family",
    "GenerationReport",
    "Provenance",
    "Transform",
    "TransformResult",
    "Variant",
    "VerificationResult",
    "all_transforms",
    "apply_transform",
    "compose_provenance",
    "count_artifacts",
    "cyclomatic_complexity",
    "find_artifacts",
    "generate_call_outcomes",
    "generate_calls",
    "generate_variants",
    "generate_variants_report",
    "get_transform",
    "jaccard",
    "tokens",
    "verify_equivalent",
]
