"""Variant names as people type them ("italian", "triestina", "turkish"), to the enum and back."""

from damiera.v1 import types_pb2

_PREFIX = "VARIANT_"


def variant_names() -> list[str]:
    """The variants the API defines, as people type them: ["italian", "triestina", "turkish"]."""
    return [
        name.removeprefix(_PREFIX).lower()
        for name in types_pb2.Variant.keys()
        if name != "VARIANT_UNSPECIFIED"
    ]


def parse_variant(name: str) -> "types_pb2.Variant":
    """The enum value of a variant name, or ValueError listing the names there are."""
    if name.lower() not in variant_names():
        raise ValueError(f"unknown variant '{name}': use one of {', '.join(variant_names())}")
    return types_pb2.Variant.Value(_PREFIX + name.upper())


def variant_name(variant: "types_pb2.Variant") -> str:
    """The name people type for an enum value: VARIANT_ITALIAN → "italian"."""
    return types_pb2.Variant.Name(variant).removeprefix(_PREFIX).lower()
