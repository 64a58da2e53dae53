#!/usr/bin/python3
"""Static checks of deploy/: the Kubernetes manifests, the Dockerfile and compose.yaml.

No cluster and no container engine are needed (deploy/container-test is the test that runs
them, with podman): every file is parsed and the fields that matter are checked - probes and
their paths and ports, resources, non-root, read-only root file system, one explicit image tag
everywhere, DATABASE_URL from a Secret, the weekly CronJob, that the HPA, the PDB, the Service
and the NetworkPolicy point at the Deployment's pods.

Usage: check_manifests.py [REPO]   (run by ctest as deploy_manifests; needs Debian's python3-yaml)
Prints one line per check and 'N passed, N failed'; exits 1 if any check failed.
"""
import json
import pathlib
import re
import shlex
import subprocess
import sys

import yaml

REPO = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
DEPLOY = REPO / "deploy"
K8S = DEPLOY / "k8s"
NAMESPACE = "lowcostgpu"
PORT = 8080

results = []


def check(name, ok, detail=""):
    results.append(bool(ok))
    print(f"{'ok  ' if ok else 'FAIL'} {name}{'' if ok else f': {detail}'}")
    return bool(ok)


# ------------------------------------------------------------------ helpers

def load_manifests():
    docs = []
    for path in sorted(K8S.glob("*.yaml")):
        try:
            for doc in yaml.safe_load_all(path.read_text()):
                if doc is not None:
                    docs.append((path.name, doc))
            check(f"{path.name} parses", True)
        except yaml.YAMLError as e:
            check(f"{path.name} parses", False, str(e))
    return docs


def selects(selector, labels):
    """Does a label selector (matchLabels + matchExpressions) select these labels?"""
    if not selector:
        return False
    for k, v in (selector.get("matchLabels") or {}).items():
        if labels.get(k) != v:
            return False
    for e in selector.get("matchExpressions") or []:
        key, op, values = e["key"], e["operator"], e.get("values") or []
        if op == "In" and labels.get(key) not in values:
            return False
        if op == "NotIn" and labels.get(key) in values:
            return False
        if op == "Exists" and key not in labels:
            return False
        if op == "DoesNotExist" and key in labels:
            return False
    return True


def pod_spec(doc):
    kind = doc["kind"]
    if kind in ("Deployment", "Job"):
        return doc["spec"]["template"]
    if kind == "CronJob":
        return doc["spec"]["jobTemplate"]["spec"]["template"]
    return None


def quantity(q):
    """A Kubernetes quantity as a number (CPU in cores, memory in bytes)."""
    q = str(q)
    units = {"m": 1e-3, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "K": 1e3, "M": 1e6, "G": 1e9}
    for suffix, factor in sorted(units.items(), key=lambda kv: -len(kv[0])):
        if q.endswith(suffix):
            return float(q[: -len(suffix)]) * factor
    return float(q)


def image_tag(image):
    name = image.rsplit("/", 1)[-1]
    return name.split(":", 1)[1] if ":" in name and "@" not in name else None


def env_of(container):
    return {e["name"]: e for e in container.get("env") or []}


def bash_syntax_ok(script):
    return subprocess.run(["bash", "-n", "-c", script], capture_output=True).returncode == 0


# ------------------------------------------------------------------ Kubernetes

def check_kubernetes():
    docs = load_manifests()
    by_kind = {}
    for file, doc in docs:
        by_kind.setdefault(doc.get("kind"), []).append((file, doc))
        named = doc.get("kind") == "Kustomization" or (doc.get("metadata") or {}).get("name")
        check(f"{file}: {doc.get('kind')} has apiVersion, kind and a name",
              doc.get("apiVersion") and doc.get("kind") and named)
        if doc.get("kind") not in ("Namespace", "Kustomization"):
            check(f"{file}: {doc['kind']} {doc['metadata']['name']} is in namespace {NAMESPACE}",
                  doc["metadata"].get("namespace") == NAMESPACE, doc["metadata"].get("namespace"))

    # kustomization: every manifest but the Secret template, and only existing files.
    kust = [d for _, d in by_kind.get("Kustomization", [])]
    if check("kustomization.yaml exists", len(kust) == 1):
        listed = set(kust[0].get("resources") or [])
        expected = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml", "secret.example.yaml",
                                                            "signing-key.example.yaml"}
        check("kustomization lists every manifest but the Secret templates", listed == expected,
              f"missing {sorted(expected - listed)}, extra {sorted(listed - expected)}")

    deployments = [d for _, d in by_kind.get("Deployment", [])]
    if not check("one Deployment", len(deployments) == 1, len(deployments)):
        return
    dep = deployments[0]
    name = dep["metadata"]["name"]
    pod_labels = dep["spec"]["template"]["metadata"]["labels"]
    check("Deployment selector selects its own pod template",
          selects(dep["spec"]["selector"], pod_labels), dep["spec"]["selector"])
    pod = dep["spec"]["template"]["spec"]
    containers = pod["containers"]
    check("Deployment has one container", len(containers) == 1)
    c = containers[0]
    ports = {p.get("name"): p["containerPort"] for p in c.get("ports") or []}

    def resolve(port):
        return ports.get(port) if isinstance(port, str) else port

    check(f"container port {PORT} is named http", ports.get("http") == PORT, ports)
    args = c.get("args") or []
    listen = args[args.index("--listen") + 1] if "--listen" in args else ""
    check("serve listens on 0.0.0.0 at the container port",
          args[:1] == ["serve"] and listen == f"0.0.0.0:{PORT}", args)
    for probe, path in (("readinessProbe", "/readyz"), ("livenessProbe", "/healthz")):
        get = (c.get(probe) or {}).get("httpGet") or {}
        check(f"{probe} is GET {path} on the serving port",
              get.get("path") == path and resolve(get.get("port")) == PORT, get)
    rd = (c.get("readinessProbe") or {}).get("httpGet", {}).get("path")
    lv = (c.get("livenessProbe") or {}).get("httpGet", {}).get("path")
    check("liveness does not depend on the database (/healthz, not /readyz)", lv != "/readyz" and rd == "/readyz")
    env = env_of(c)
    threads = env.get("THREADS", {}).get("value")
    cpu_limit = ((c.get("resources") or {}).get("limits") or {}).get("cpu")
    if threads and cpu_limit:
        check("THREADS matches the CPU limit", int(threads) == max(1, int(quantity(cpu_limit))),
              f"THREADS={threads}, limit {cpu_limit}")
    max_age = env.get("READY_MAX_AGE", {}).get("value")
    check("a database outage does not make every replica unready (READY_MAX_AGE >= 1 h)",
          max_age and int(max_age) >= 3600, max_age)
    check("ALLOWED_HOSTS names the public host for POST /mcp", env.get("ALLOWED_HOSTS", {}).get("value"))
    mem_limit = ((c.get("resources") or {}).get("limits") or {}).get("memory")
    if mem_limit:
        check("memory limit leaves room above the 64 MiB RSS target", quantity(mem_limit) >= 64 * 2**20, mem_limit)

    # Every workload: image, security, resources, DATABASE_URL from a Secret.
    workloads = [(f, d) for kind in ("Deployment", "Job", "CronJob") for f, d in by_kind.get(kind, [])]
    images = set()
    secret_keys = set()
    for file, doc in workloads:
        what = f"{doc['kind']} {doc['metadata']['name']}"
        template = pod_spec(doc)
        spec = template["spec"]
        pod_sc = spec.get("securityContext") or {}
        for ct in spec["containers"]:
            sc = ct.get("securityContext") or {}
            images.add(ct["image"])
            tag = image_tag(ct["image"])
            check(f"{what}: image has an explicit tag, not latest", tag and tag != "latest", ct["image"])
            non_root = sc.get("runAsNonRoot", pod_sc.get("runAsNonRoot")) is True
            uid = sc.get("runAsUser", pod_sc.get("runAsUser"))
            check(f"{what}: runs as non-root", non_root and uid not in (None, 0), f"runAsNonRoot/runAsUser {uid}")
            check(f"{what}: read-only root file system", sc.get("readOnlyRootFilesystem") is True)
            check(f"{what}: no privilege escalation", sc.get("allowPrivilegeEscalation") is False)
            check(f"{what}: drops all capabilities", "ALL" in ((sc.get("capabilities") or {}).get("drop") or []))
            seccomp = (sc.get("seccompProfile") or pod_sc.get("seccompProfile") or {}).get("type")
            check(f"{what}: seccomp RuntimeDefault", seccomp == "RuntimeDefault", seccomp)
            res = ct.get("resources") or {}
            have = all(k in (res.get(part) or {}) for part in ("requests", "limits") for k in ("cpu", "memory"))
            if check(f"{what}: cpu and memory requests and limits", have, res):
                for k in ("cpu", "memory"):
                    check(f"{what}: {k} request <= limit",
                          quantity(res["requests"][k]) <= quantity(res["limits"][k]), res)
            db = env_of(ct).get("DATABASE_URL") or {}
            ref = (db.get("valueFrom") or {}).get("secretKeyRef") or {}
            check(f"{what}: DATABASE_URL comes from a Secret (secretKeyRef), never a literal",
                  "value" not in db and ref.get("name") and ref.get("key"), db)
            secret_keys.add((ref.get("name"), ref.get("key")))
        check(f"{what}: service account token not mounted", spec.get("automountServiceAccountToken") is False)
    check("one image, the same tag in every manifest", len(images) == 1, sorted(images))
    tag = image_tag(next(iter(images))) if len(images) == 1 else None

    role_key = {"Deployment": "reader-url", "CronJob": "publisher-url", "Job": "owner-url"}  # collect imports: publisher
    for file, doc in workloads:
        ct = pod_spec(doc)["spec"]["containers"][0]
        ref = ((env_of(ct).get("DATABASE_URL") or {}).get("valueFrom") or {}).get("secretKeyRef") or {}
        check(f"{doc['kind']} {doc['metadata']['name']} uses the {role_key[doc['kind']]} role",
              ref.get("key") == role_key[doc["kind"]], ref)

    # The week's offers collected on Sunday 23:30, inside the window of Monday's sheet, then the
    # weekly publish on Monday 00:00, signed with a key from its own Secret.
    crons = {d["metadata"]["name"]: d for _, d in by_kind.get("CronJob", [])}
    check("two CronJobs: lowcostgpu-collect and lowcostgpu-publish",
          sorted(crons) == ["lowcostgpu-collect", "lowcostgpu-publish"], sorted(crons))
    for cron_name, cj in crons.items():
        check(f"CronJob {cron_name} is in UTC", cj["spec"].get("timeZone") == "Etc/UTC", cj["spec"].get("timeZone"))
        check(f"CronJob {cron_name} never overlaps itself", cj["spec"].get("concurrencyPolicy") == "Forbid")
        check(f"CronJob {cron_name} pods never restart in place",
              pod_spec(cj)["spec"].get("restartPolicy") in ("Never", "OnFailure"))
    if "lowcostgpu-publish" in crons:
        cj = crons["lowcostgpu-publish"]
        ct = pod_spec(cj)["spec"]["containers"][0]
        key = ((env_of(ct).get("LCG_SIGNING_KEY") or {}).get("valueFrom") or {}).get("secretKeyRef") or {}
        check("the publish CronJob signs with a key from the lowcostgpu-signing-key Secret",
              key.get("name") == "lowcostgpu-signing-key" and key.get("key") == "signing-key.pem", key)
        check("publish runs Monday 00:00", cj["spec"].get("schedule") == "0 0 * * 1", cj["spec"].get("schedule"))
        check("publish runs publish", (ct.get("args") or [])[:1] == ["publish"], ct.get("args"))
    if "lowcostgpu-collect" in crons:
        cj = crons["lowcostgpu-collect"]
        spec = pod_spec(cj)["spec"]
        ct = spec["containers"][0]
        args = ct.get("args") or []
        check("collect runs Sunday 23:30, before Monday's sheet", cj["spec"].get("schedule") == "30 23 * * 0",
              cj["spec"].get("schedule"))
        check("collect runs collect --sources FILE", args[:2] == ["collect", "--sources"], args)
        check("collect is never retried (a rerun observes every listing twice)",
              cj["spec"]["jobTemplate"]["spec"].get("backoffLimit") == 0)
        check("collect holds no signing key", "LCG_SIGNING_KEY" not in env_of(ct))
        mounts = {m["mountPath"]: m["name"] for m in ct.get("volumeMounts") or []}
        volumes = {v["name"]: v for v in spec.get("volumes") or []}
        folder = args[2].rsplit("/", 1)[0] if len(args) > 2 else ""
        volume = volumes.get(mounts.get(folder, ""), {})
        check("collect reads its sources file from the lowcostgpu-sources ConfigMap",
              (volume.get("configMap") or {}).get("name") == "lowcostgpu-sources", volume)
        maps = {d["metadata"]["name"]: d for _, d in by_kind.get("ConfigMap", [])}
        sources = ((maps.get("lowcostgpu-sources") or {}).get("data") or {}).get(args[2].rsplit("/", 1)[-1] if len(args) > 2 else "")
        if check("the ConfigMap holds the sources file", sources is not None):
            listed = json.loads(sources)["sources"]
            check("it names the 16 sources of the public SkyPilot catalog over https",
                  len(listed) == 16 and all(e["url"].startswith("https://raw.githubusercontent.com/skypilot-org/")
                                            and e["format"] == "skypilot-vms" for e in listed), len(listed))
        allowed = set()
        for _, pol in by_kind.get("NetworkPolicy", []):
            if selects(pol["spec"].get("podSelector") or {}, pod_spec(cj)["metadata"]["labels"]):
                for rule in pol["spec"].get("egress") or []:
                    allowed |= {resolve(p.get("port")) for p in rule.get("ports") or []}
        check("a NetworkPolicy lets collect reach https, PostgreSQL and DNS", {443, 5432, 53} <= allowed, allowed)

    jobs = [d for _, d in by_kind.get("Job", [])]
    if check("one migrate Job", len(jobs) == 1):
        job = jobs[0]
        ct = job["spec"]["template"]["spec"]["containers"][0]
        check("Job runs migrate", (ct.get("args") or [])[:1] == ["migrate"], ct.get("args"))
        if tag:
            check("migrate Job name carries the image tag (Jobs are immutable)",
                  job["metadata"]["name"].endswith(tag.replace(".", "-")), job["metadata"]["name"])

    # Service, HPA, PDB, NetworkPolicy all point at the Deployment's pods.
    services = [d for _, d in by_kind.get("Service", [])]
    if check("one Service", len(services) == 1):
        svc = services[0]
        check("Service selects the Deployment's pods", selects({"matchLabels": svc["spec"]["selector"]}, pod_labels))
        check("Service targets the serving port",
              all(resolve(p["targetPort"]) == PORT for p in svc["spec"]["ports"]), svc["spec"]["ports"])

    hpas = [d for _, d in by_kind.get("HorizontalPodAutoscaler", [])]
    min_replicas = None
    if check("one HorizontalPodAutoscaler", len(hpas) == 1):
        hpa = hpas[0]
        ref = hpa["spec"]["scaleTargetRef"]
        check("HPA targets the Deployment",
              ref.get("kind") == "Deployment" and ref.get("name") == name and ref.get("apiVersion") == "apps/v1", ref)
        min_replicas = hpa["spec"].get("minReplicas", 1)
        check("HPA keeps at least 2 replicas, min <= max",
              2 <= min_replicas <= hpa["spec"]["maxReplicas"], hpa["spec"])
        check("HPA has a metric", hpa["spec"].get("metrics"))
        check("HPA scales on CPU relative to requests", any(
            (m.get("resource") or {}).get("name") == "cpu" for m in hpa["spec"].get("metrics") or []))

    pdbs = [d for _, d in by_kind.get("PodDisruptionBudget", [])]
    if check("one PodDisruptionBudget", len(pdbs) == 1):
        pdb = pdbs[0]
        check("PDB selector matches the pod labels", selects(pdb["spec"].get("selector"), pod_labels),
              pdb["spec"].get("selector"))
        check("PDB selects only the serving pods (not the jobs)",
              not selects(pdb["spec"].get("selector"), {**pod_labels, "app.kubernetes.io/component": "publish"}))
        available = pdb["spec"].get("minAvailable")
        if isinstance(available, int) and min_replicas:
            check("PDB minAvailable is below the HPA minimum (drains can proceed)", available < min_replicas,
                  f"{available} vs {min_replicas}")
        else:
            check("PDB sets minAvailable or maxUnavailable",
                  "minAvailable" in pdb["spec"] or "maxUnavailable" in pdb["spec"])

    policies = [d for _, d in by_kind.get("NetworkPolicy", [])]
    api_policies = [p for p in policies if selects(p["spec"].get("podSelector"), pod_labels)]
    if check("a NetworkPolicy selects the serving pods", api_policies):
        p = api_policies[0]
        ingress_ports = [port.get("port") for rule in p["spec"].get("ingress") or [] for port in rule.get("ports") or []]
        check("NetworkPolicy lets HTTP in on the serving port", any(resolve(x) == PORT for x in ingress_ports),
              ingress_ports)
        egress_ports = {port.get("port") for rule in p["spec"].get("egress") or [] for port in rule.get("ports") or []}
        check("NetworkPolicy lets the pods reach PostgreSQL and DNS", {5432, 53} <= egress_ports, egress_ports)
    for file, doc in workloads:
        labels = pod_spec(doc)["metadata"]["labels"]
        check(f"{doc['kind']} {doc['metadata']['name']}: some NetworkPolicy selects its pods",
              any(selects(p["spec"].get("podSelector"), labels) for p in policies))

    # The Secret template: every key the workloads read, no real credentials.
    secrets = [(f, d) for f, d in by_kind.get("Secret", [])]
    if check("a Secret template exists (secret.example.yaml)", any(f == "secret.example.yaml" for f, _ in secrets)):
        tmpl = next(d for f, d in secrets if f == "secret.example.yaml")
        data = tmpl.get("stringData") or {}
        missing = {(n, k) for n, k in secret_keys if n != tmpl["metadata"]["name"] or k not in data}
        check("the Secret template has every key the workloads read", not missing, sorted(missing))
        passwords = [re.match(r"postgresql://[^:/@]+:([^@]*)@", v) for v in data.values()]
        check("the Secret template holds placeholders only",
              all(m and m.group(1) == "CHANGE-ME" for m in passwords) and not tmpl.get("data"), data)
    namespaces = [d for _, d in by_kind.get("Namespace", [])]
    if namespaces:
        check("namespace enforces the restricted Pod Security Standard",
              namespaces[0]["metadata"].get("labels", {}).get("pod-security.kubernetes.io/enforce") == "restricted")
    return tag


# ------------------------------------------------------------------ Dockerfile

def dockerfile_instructions(text):
    """(INSTRUCTION, arguments) pairs, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n", " ", "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("#")))
    out = []
    for line in text.splitlines():
        if line.strip():
            word, _, rest = line.strip().partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def lib_sh_packages():
    text = (DEPLOY / "lib.sh").read_text()
    m = re.search(r"PACKAGES=\(([^)]*)\)", text)
    return m.group(1).split() if m else []


def check_dockerfile(k8s_tag):
    path = DEPLOY / "Dockerfile"
    if not check("deploy/Dockerfile exists", path.exists()):
        return
    ins = dockerfile_instructions(path.read_text())
    stages, current = [], None
    for word, rest in ins:
        if word == "FROM":
            current = {"from": rest, "ins": []}
            stages.append(current)
        elif current is not None:
            current["ins"].append((word, rest))
    check("Dockerfile is multi-stage", len(stages) >= 2, len(stages))
    check("every stage is FROM debian:12-slim", all(s["from"].split()[0] == "debian:12-slim" for s in stages),
          [s["from"] for s in stages])
    build_name = stages[0]["from"].split()[-1] if " AS " in stages[0]["from"].upper() else "0"
    final = stages[-1]

    def runs(stage):
        return " ".join(rest for w, rest in stage["ins"] if w == "RUN")

    check("runtime stage copies the binary from the build stage",
          any(w == "COPY" and f"--from={build_name}" in rest for w, rest in final["ins"]))
    installed = set(re.findall(r"[a-z0-9][a-z0-9.+-]+", runs(final)))
    for pkg in ("libpqxx-6.4", "libboost-json1.81.0", "libssl3", "zlib1g"):
        check(f"runtime stage installs {pkg}", pkg in installed)
    check("runtime stage installs no -dev package nor compiler",
          not any(p.endswith("-dev") or p in ("g++", "gcc", "cmake", "build-essential") for p in installed),
          sorted(p for p in installed if p.endswith("-dev")))
    build_installed = set(re.findall(r"[a-z0-9][a-z0-9.+-]+", runs(stages[0])))
    # Test and fuzzing tools are not needed by the Release build of the image.
    wanted = [p for p in lib_sh_packages()
              if p.endswith("-dev") and p != "doctest-dev" and not p.startswith("libclang-rt-")]
    check("build stage installs the -dev packages of deploy/lib.sh",
          wanted and all(p in build_installed for p in wanted), sorted(set(wanted) - build_installed))
    check("build stage builds Release without tests",
          "-DCMAKE_BUILD_TYPE=Release" in runs(stages[0]) and "-DLCG_BUILD_TESTS=OFF" in runs(stages[0]))

    users = [rest for w, rest in final["ins"] if w == "USER"]
    user = users[-1].split(":")[0] if users else ""
    check("runtime stage runs as a non-root numeric USER", user.isdigit() and int(user) != 0, users)
    health = [rest for w, rest in final["ins"] if w == "HEALTHCHECK"]
    if check("runtime stage has a HEALTHCHECK on /healthz", health and "/healthz" in health[-1], health):
        cmd = health[-1][health[-1].index("CMD") + 3:].strip()
        try:
            argv = json.loads(cmd)
            script = argv[-1] if argv[:2] == ["bash", "-c"] else None
            check("HEALTHCHECK probes the serving port, in valid bash",
                  script and f"/{PORT}" in script and bash_syntax_ok(script), cmd)
        except json.JSONDecodeError:
            check("HEALTHCHECK is in exec form", False, cmd)
    entry = [json.loads(rest) for w, rest in final["ins"] if w == "ENTRYPOINT"]
    check("ENTRYPOINT is lowcostgpu", entry and entry[-1] == ["lowcostgpu"], entry)
    cmd = [json.loads(rest) for w, rest in final["ins"] if w == "CMD"]
    check(f"default CMD is serve --listen 0.0.0.0:{PORT}",
          cmd and cmd[-1] == ["serve", "--listen", f"0.0.0.0:{PORT}"], cmd)
    check(f"EXPOSE {PORT}", any(w == "EXPOSE" and str(PORT) in rest for w, rest in final["ins"]))
    version = [re.search(r"VERSION=(\S+)", rest) for w, rest in final["ins"] if w == "ARG"]
    version = [m.group(1) for m in version if m]
    if k8s_tag and version:
        check("image VERSION label matches the manifests' tag", version[0] == k8s_tag, f"{version[0]} vs {k8s_tag}")
    project = re.search(r"project\(\s*lowcostgpu\s+VERSION\s+([0-9.]+)", (REPO / "CMakeLists.txt").read_text())
    check("image VERSION label is the project version of CMakeLists.txt",
          version and project and version[0] == project.group(1), f"{version} vs {project and project.group(1)}")
    ignore = DEPLOY / "Dockerfile.dockerignore"
    check("build context leaves out build trees and .git",
          ignore.exists() and {"build", ".git"} <= set(ignore.read_text().split()))


# ------------------------------------------------------------------ compose

def check_compose(k8s_tag):
    path = DEPLOY / "compose.yaml"
    if not check("deploy/compose.yaml exists", path.exists()):
        return
    try:
        compose = yaml.safe_load(path.read_text())
        check("compose.yaml parses", True)
    except yaml.YAMLError as e:
        check("compose.yaml parses", False, str(e))
        return
    services = compose.get("services") or {}
    for name in ("postgres", "migrate", "serve", "publish-weekly"):
        check(f"compose has service {name}", name in services)
    if not {"postgres", "migrate", "serve", "publish-weekly"} <= set(services):
        return
    pg, migrate, serve, publish = (services[n] for n in ("postgres", "migrate", "serve", "publish-weekly"))
    check("postgres is postgres:15", pg.get("image") == "postgres:15", pg.get("image"))
    check("postgres has a healthcheck", (pg.get("healthcheck") or {}).get("test"))
    check("serve has a healthcheck", (serve.get("healthcheck") or {}).get("test"))
    test = (serve.get("healthcheck") or {}).get("test") or []
    script = None
    if test[:3] == ["CMD", "bash", "-c"]:
        script = test[3]
    elif test[:1] == ["CMD-SHELL"] and len(test) == 2:
        words = shlex.split(test[1].replace("$$", "$"))
        script = words[2] if words[:2] == ["bash", "-c"] and len(words) == 3 else None
    check("serve healthcheck runs bash on the serving port's /readyz, in valid bash",
          script and f"/{PORT}" in script and "/readyz" in script and bash_syntax_ok(script.replace("$$", "$")), test)
    check("migrate runs migrate, once", migrate.get("command") == ["migrate"] and migrate.get("restart") == "no")
    check("serve waits for migrate to finish",
          ((serve.get("depends_on") or {}).get("migrate") or {}).get("condition") == "service_completed_successfully")
    check("migrate waits for a healthy postgres",
          ((migrate.get("depends_on") or {}).get("postgres") or {}).get("condition") == "service_healthy")
    roles = {"migrate": "lowcostgpu_owner", "serve": "lowcostgpu_reader", "publish-weekly": "lowcostgpu_publisher"}
    for name, role in roles.items():
        url = str((services[name].get("environment") or {}).get("DATABASE_URL", ""))
        check(f"{name} connects as {role}, password from the environment",
              url.startswith(f"postgresql://{role}:${{") and "@postgres:5432/" in url, url)
    for name in roles:
        s = services[name]
        image = s.get("image", "")
        check(f"{name}: image lowcostgpu with the manifests' tag",
              image.startswith("lowcostgpu:") and image_tag(image) == k8s_tag, f"{image} vs {k8s_tag}")
        check(f"{name}: non-root, read-only, no new privileges",
              str(s.get("user", "0")).split(":")[0] not in ("0", "root") and s.get("read_only") is True
              and "no-new-privileges:true" in (s.get("security_opt") or []), s)
    for name, s in services.items():
        for key, value in (s.get("environment") or {}).items():
            if "PASSWORD" in key:
                check(f"{name}: {key} comes from the environment, not the file",
                      re.fullmatch(r"\$\{[A-Z_]+(:\?[^}]*)?\}", str(value)), value)
    check("serve publishes its port on 127.0.0.1 only",
          all(str(p).startswith("127.0.0.1:") for p in serve.get("ports") or []), serve.get("ports"))
    script = (publish.get("command") or [""])[-1]
    check("publish-weekly sleeps until Monday 00:00 UTC and publishes, in valid bash",
          "next monday 00:00" in script and "lowcostgpu publish" in script and "date -u" in script
          and bash_syntax_ok(script.replace("$$", "$")), script)
    mounts = [str(v) for v in pg.get("volumes") or []]
    init = [m.split(":")[0] for m in mounts if "docker-entrypoint-initdb.d" in m]
    check("postgres runs the roles script on first start",
          init and all((DEPLOY / i).exists() for i in init), init)


def main():
    tag = check_kubernetes()
    check_dockerfile(tag)
    check_compose(tag)
    failed = results.count(False)
    print(f"\n{results.count(True)} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
