"""Generates the Python gRPC stubs of Damiera's API from ../../proto into ./damiera (git-ignored),
and copies the published service config (../../proto/service_config.json) beside them.

Run it with the venv's Python before the examples or tests: `.venv/bin/python generate_stubs.py`.
The google.rpc types that errors carry (Status, ErrorInfo, BadRequest, RetryInfo) come ready-made
from the googleapis-common-protos package, so only Damiera's own files are generated here.
"""

import shutil
import sys
from pathlib import Path

from grpc_tools import protoc

HERE = Path(__file__).resolve().parent
PROTO_ROOT = HERE.parent.parent / "proto"
OUTPUT = HERE  # the files land in ./damiera/v1, mirroring the proto package damiera.v1


def main() -> int:
    proto_files = sorted(str(path) for path in (PROTO_ROOT / "damiera" / "v1").glob("*.proto"))
    if not proto_files:
        print(f"no .proto files under {PROTO_ROOT}", file=sys.stderr)
        return 1
    # protoc's own include folder holds google/protobuf/duration.proto and timestamp.proto.
    well_known = Path(protoc.__file__).parent / "_proto"
    arguments = [
        "protoc",
        f"-I{PROTO_ROOT}",
        f"-I{well_known}",
        f"--python_out={OUTPUT}",
        f"--pyi_out={OUTPUT}",
        f"--grpc_python_out={OUTPUT}",
        *proto_files,
    ]
    status = protoc.main(arguments)
    if status != 0:
        print(f"protoc failed with status {status}", file=sys.stderr)
        return status
    shutil.copyfile(PROTO_ROOT / "service_config.json", OUTPUT / "damiera" / "service_config.json")
    print(f"generated {len(proto_files)} proto files into {OUTPUT / 'damiera' / 'v1'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
