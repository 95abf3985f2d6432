"""The deployment artefacts' static checks, run by deploy/check (which .ci/test runs).

    check.py schemas SOURCE OUT RENDERED...   standalone JSON schemas for kubeconform
    check.py static SERVE_HELP RENDERED...    the cross-checks below; exit 1 listing every problem
    check.py canary RENDERED OUT              RENDERED with an unknown field in a container

`static` checks what no schema knows: every DAMIERA_* variable named in the Dockerfile, Compose,
Envoy and Kubernetes files is one `damiera serve --help` lists; every image is pinned; Compose's
build context, Dockerfile and bind mounts exist; Envoy routes to Compose's damiera service on the
port the server listens on; the Dockerfile's HEALTHCHECK, EXPOSE and COPY agree with the server
and .dockerignore; the pods' grace period outlasts drain grace plus shutdown timeout; and the
`docker build` command is the same in the Dockerfile's header, deploy/README.md and README.md.
"""

import fnmatch
import json
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
DOCKERFILE = DEPLOY / "docker" / "Dockerfile"
COMPOSE = DEPLOY / "compose.yaml"
ENVOY = DEPLOY / "envoy" / "envoy.yaml"
BUILD_COMMAND = "docker build -f deploy/docker/Dockerfile -t damiera ."
VARIABLE = re.compile(r"\bDAMIERA_[A-Z0-9_]*[A-Z0-9]\b")
problems = []


def problem(text):
    problems.append(text)


def show(path):
    """A path as the reader knows it: in the repository, or as given."""
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def pinned(image):
    """A tag other than latest, or a digest; a bare name floats."""
    if "@sha256:" in image:
        return True
    name, _, tag = image.rpartition(":")
    return bool(name) and "/" not in tag and tag not in ("", "latest")


def seconds(duration):
    """"30s", "1m", "500ms", "1h" as seconds (the forms the manifests use)."""
    match = re.fullmatch(r"(\d+)(ms|s|m|h)", str(duration))
    if not match:
        raise ValueError(f"unreadable duration {duration!r}")
    return int(match[1]) * {"ms": 0.001, "s": 1, "m": 60, "h": 3600}[match[2]]


def known_variables(serve_help):
    known = set(re.findall(r"\[env: (DAMIERA_[A-Z0-9_]+)", serve_help))
    if len(known) < 10:
        problem(f"`damiera serve --help` lists only {sorted(known)}: is it the server's help?")
    return known


def check_variables(known, rendered):
    files = [DOCKERFILE, COMPOSE, ENVOY, *sorted((DEPLOY / "kubernetes").rglob("*.yaml")), *rendered]
    for path in files:
        for name in sorted(set(VARIABLE.findall(path.read_text()))):
            if name not in known:
                problem(f"{show(path)}: {name} is not a `damiera serve` setting")


def dockerfile_instructions():
    """(instruction, arguments) pairs, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE.read_text())
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [tuple(line.split(None, 1)) for line in lines]


def dockerignored(path, patterns):
    return any(fnmatch.fnmatch(path, p.rstrip("/")) or path.startswith(p.rstrip("/") + "/") for p in patterns)


def check_dockerfile():
    instructions = dockerfile_instructions()
    env = {}
    for op, args in instructions:
        if op == "ENV":
            env.update(dict(pair.split("=", 1) for pair in args.split()))
    listen_port = int(env.get("DAMIERA_LISTEN", ":0").rsplit(":", 1)[1])
    metrics_port = int(env.get("DAMIERA_METRICS_LISTEN", ":0").rsplit(":", 1)[1])
    ignore = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines() if line.strip() and not line.startswith("#")]
    for op, args in instructions:
        words = args.split()
        if op == "FROM" and not pinned(words[0]):
            problem(f"Dockerfile: FROM {words[0]} is not pinned")
        if op == "COPY" and not any(w.startswith("--from") for w in words):
            for source in [w for w in words[:-1] if not w.startswith("--")]:
                if not (ROOT / source).exists():
                    problem(f"Dockerfile: COPY {source}: no such file in the repository")
                elif dockerignored(source, ignore):
                    problem(f"Dockerfile: COPY {source}: .dockerignore leaves it out of the context")
        if op == "EXPOSE" and {str(listen_port), str(metrics_port)} - set(words):
            problem(f"Dockerfile: EXPOSE {args} misses {listen_port} or {metrics_port}")
        if op == "HEALTHCHECK":
            command = json.loads(args[args.index("["):])
            if command[1:3] != ["health", "--addr"] or not command[3].endswith(f":{listen_port}"):
                problem(f"Dockerfile: HEALTHCHECK {command} does not ask `damiera health` on port {listen_port}")
    return listen_port


def check_compose(listen_port):
    compose = yaml.safe_load(COMPOSE.read_text())
    services = compose["services"]
    for name, service in services.items():
        image = service.get("image")
        if "build" in service:
            build = service["build"]
            context = (COMPOSE.parent / build["context"]).resolve()
            if not (context / build["dockerfile"]).is_file():
                problem(f"compose.yaml: {name}: no Dockerfile at {build['context']}/{build['dockerfile']}")
        elif not image or not pinned(image):
            problem(f"compose.yaml: {name}: image {image!r} is not pinned")
        for volume in service.get("volumes", []):
            source = volume.split(":", 1)[0]
            if source.startswith(".") and not (COMPOSE.parent / source).exists():
                problem(f"compose.yaml: {name}: bind mount {source} does not exist")
            elif not source.startswith(("/", ".")) and source not in (compose.get("volumes") or {}):
                problem(f"compose.yaml: {name}: volume {source} is not declared")
        for dependency in service.get("depends_on", {}):
            if dependency not in services:
                problem(f"compose.yaml: {name} depends on {dependency}, which is not a service")
    return services


def check_envoy(services, listen_port):
    envoy = yaml.safe_load(ENVOY.read_text())
    clusters = {c["name"]: c for c in envoy["static_resources"]["clusters"]}
    routed = set(re.findall(r"cluster: (\S+)", ENVOY.read_text()))
    for name in routed - set(clusters):
        problem(f"envoy.yaml: routes to cluster {name}, which is not defined")
    for cluster in clusters.values():
        for group in cluster["load_assignment"]["endpoints"]:
            for endpoint in group["lb_endpoints"]:
                address = endpoint["endpoint"]["address"]["socket_address"]
                if address["address"] not in services or "build" not in services[address["address"]]:
                    problem(f"envoy.yaml: upstream {address['address']} is not compose.yaml's damiera service")
                if address["port_value"] != listen_port:
                    problem(f"envoy.yaml: upstream port {address['port_value']} is not the server's {listen_port}")
    listeners = {l["address"]["socket_address"]["port_value"] for l in envoy["static_resources"]["listeners"]}
    published = {int(str(p).rsplit(":", 1)[1]) for p in services["envoy"].get("ports", [])}
    if listeners - published:
        problem(f"compose.yaml: envoy does not publish its listener ports {sorted(listeners - published)}")


def check_rendered(rendered, listen_port):
    for path in rendered:
        documents = [d for d in yaml.safe_load_all(path.read_text()) if d]
        config = {}
        for d in documents:
            if d["kind"] == "ConfigMap":
                config.update(d.get("data", {}))
        services = {d["metadata"]["name"]: d for d in documents if d["kind"] == "Service"}
        for d in documents:
            if d["kind"] == "GRPCRoute":  # no schema for it (deploy/check): its links, at least
                check_route(path, d, services)
            if d["kind"] not in ("Deployment", "StatefulSet"):
                continue
            pod = d["spec"]["template"]["spec"]
            where = f"{path.name}: {d['kind']} {d['metadata']['name']}"
            for container in pod["containers"]:
                if not pinned(container["image"]):
                    problem(f"{where}: image {container['image']} is not pinned")
                probe = (container.get("readinessProbe") or {}).get("grpc")
                if probe and probe["port"] != listen_port:
                    problem(f"{where}: the gRPC probe asks port {probe['port']}, the server listens on {listen_port}")
            if "DAMIERA_DRAIN_GRACE" in config:
                needed = seconds(config["DAMIERA_DRAIN_GRACE"]) + seconds(config.get("DAMIERA_SHUTDOWN_TIMEOUT", "10s"))
                if pod.get("terminationGracePeriodSeconds", 30) <= needed:
                    problem(f"{where}: terminationGracePeriodSeconds must exceed drain grace + shutdown timeout ({needed}s)")


def check_route(path, route, services):
    where = f"{path.name}: GRPCRoute {route['metadata']['name']}"
    if route["apiVersion"] != "gateway.networking.k8s.io/v1" or not route["spec"].get("parentRefs"):
        problem(f"{where}: not a gateway.networking.k8s.io/v1 route with parentRefs")
    for rule in route["spec"]["rules"]:
        for ref in rule["backendRefs"]:
            service = services.get(ref["name"])
            if not service or ref["port"] not in [p["port"] for p in service["spec"]["ports"]]:
                problem(f"{where}: backend {ref['name']}:{ref['port']} is not a Service port of the same build")


def check_build_command():
    for path in (DOCKERFILE, DEPLOY / "README.md", ROOT / "README.md"):
        if BUILD_COMMAND not in path.read_text():
            problem(f"{show(path)} does not show the build command `{BUILD_COMMAND}`")


def static(serve_help_path, rendered):
    known = known_variables(Path(serve_help_path).read_text())
    check_variables(known, rendered)
    listen_port = check_dockerfile()
    services = check_compose(listen_port)
    check_envoy(services, listen_port)
    check_rendered(rendered, listen_port)
    check_build_command()
    for text in problems:
        print(f"deploy check: {text}", file=sys.stderr)
    print(f"deploy check: {len(problems)} problems in the Dockerfile, Compose, Envoy and {len(rendered)} rendered manifests")
    return 1 if problems else 0


def schemas(source, out, rendered):
    """Standalone copies of the kinds the manifests use: kubernetes-validate's schemas refer to a
    shared _definitions.json by an absolute path that kubeconform cannot follow; inline it."""
    source, out = Path(source), Path(out)
    definitions = json.loads((source / "_definitions.json").read_text().replace("/api/_definitions.json#", "#"))
    out.mkdir(parents=True, exist_ok=True)
    for path in rendered:
        for d in yaml.safe_load_all(Path(path).read_text()):
            if not d:
                continue
            group, _, version = d["apiVersion"].rpartition("/")
            name = "-".join(filter(None, [d["kind"].lower(), group.split(".")[0], version])) + ".json"
            if not (source / name).exists() or (out / name).exists():
                continue  # a kind Kubernetes does not define (a CRD): kubeconform says so
            schema = json.loads((source / name).read_text().replace("/api/_definitions.json#", "#"))
            schema["$defs"] = definitions["$defs"]
            (out / name).write_text(json.dumps(schema))


def canary(rendered, out):
    """A manifest that strict validation must refuse: kubeconform passing it means it checks nothing."""
    documents = [d for d in yaml.safe_load_all(Path(rendered).read_text()) if d]
    deployment = next(d for d in documents if d["kind"] == "Deployment")
    deployment["spec"]["template"]["spec"]["containers"][0]["unknownField"] = 1
    Path(out).write_text(yaml.safe_dump(deployment))


if __name__ == "__main__":
    command, *arguments = sys.argv[1:]
    if command == "schemas":
        schemas(arguments[0], arguments[1], arguments[2:])
    elif command == "canary":
        canary(*arguments)
    elif command == "static":
        sys.exit(static(arguments[0], [Path(p) for p in arguments[1:]]))
    else:
        sys.exit(f"unknown command {command}")
