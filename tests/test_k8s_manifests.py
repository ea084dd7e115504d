"""deploy/k8s fits Kubernetes and the app, checked offline (no cluster here): every object validates, strictly
(an unknown or misspelt field fails), against the API schemas that kubernetes-validate bundles; and the
manifests match the code: Streamlit's port, its health path, environment variables the app reads, the cache
volume where ATTENTION_LAB_CACHE points, a postgresql:// URL the store accepts, names that resolve."""

import base64
import copy
import re
import tomllib
from pathlib import Path

import kubernetes_validate
import pytest
import yaml
from sqlalchemy.engine import make_url

from store.engine import normalize_url

ROOT = Path(__file__).resolve().parents[1]
K8S = ROOT / "deploy" / "k8s"
VERSIONS = ("1.30", "1.37")  # the oldest we claim (preStop sleep: beta, on by default since 1.30), the newest bundled
HEALTH = "/_stcore/health"  # Streamlit's health endpoint, as the Dockerfile's HEALTHCHECK uses it


def docs(path: Path) -> list[dict]:
    return [d for d in yaml.safe_load_all(path.read_text()) if d]


def kustomization(folder: Path = K8S) -> dict:
    return yaml.safe_load((folder / "kustomization.yaml").read_text())


def objects() -> list[dict]:
    return [d for name in kustomization()["resources"] for d in docs(K8S / name)]


def one(kind: str, name: str | None = None, objs: list[dict] | None = None) -> dict:
    found = [o for o in objs or objects() if o["kind"] == kind and name in (None, o["metadata"]["name"])]
    assert len(found) == 1, (kind, name, len(found))
    return found[0]


def app_container(deploy: dict | None = None) -> dict:
    return (deploy or one("Deployment"))["spec"]["template"]["spec"]["containers"][0]


def env_file(name: str) -> dict[str, str]:
    lines = (K8S / f"{name}.example").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line.strip() and not line.startswith("#"))


def secrets() -> list[dict]:
    """The Secrets kustomize's secretGenerator makes, from the committed examples of the env files."""
    return [{"apiVersion": "v1", "kind": "Secret", "type": "Opaque", "metadata": {"name": g["name"]},
             "data": {k: base64.b64encode(v.encode()).decode() for f in g["envs"] for k, v in env_file(f).items()}}
            for g in kustomization()["secretGenerator"]]  # fmt: skip


def json_patch(doc: dict, ops: list[dict]) -> dict:
    """RFC 6902 add and replace, the two operations real-model/deployment-patch.yaml uses."""
    doc = copy.deepcopy(doc)
    for op in ops:
        *parents, last = [int(p) if p.isdigit() else p for p in op["path"].lstrip("/").split("/")]
        target = doc
        for p in parents:
            target = target[p]
        assert op["op"] in ("add", "replace"), op
        if last == "-":
            target.append(op["value"])
        else:
            assert op["op"] == "add" or last in target or isinstance(last, int), op["path"]
            target[last] = op["value"]
    return doc


def real_model_deployment() -> dict:
    ops = docs(K8S / "real-model" / "deployment-patch.yaml")[0]
    return json_patch(one("Deployment"), ops)


def quantity(q: str | int) -> float:
    """A Kubernetes quantity (memory in bytes, CPU in cores); the schemas accept any string here."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)(m|k|M|G|Ki|Mi|Gi)?", str(q))
    assert m, f"not a quantity: {q!r}"
    scale = {None: 1, "m": 1e-3, "k": 1e3, "M": 1e6, "G": 1e9, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30}
    return float(m.group(1)) * scale[m.group(2)]


def env_names_the_app_reads() -> set[str]:
    """Names the app's code passes to os.environ / os.getenv, literally or through a NAME = "..." constant."""
    dirs = ("models", "ui", "lessons", "store", "viz")
    sources = [ROOT / "app.py", *[p for d in dirs for p in (ROOT / d).rglob("*.py")]]
    text = "\n".join(p.read_text() for p in sources)
    constants = dict(re.findall(r'^\s*([A-Z][A-Z0-9_]*)\s*=\s*"([A-Z][A-Z0-9_]*)"', text, re.M))
    call = r"(?:os\.environ(?:\.get)?[\[(]|os\.getenv\()\s*"
    used = re.findall(call + r'(?:"([A-Z0-9_]+)"|(?:\w+\.)?([A-Z][A-Z0-9_]*))', text)
    return {literal or constants.get(ident, "") for literal, ident in used} - {""}


def test_every_file_parses_and_the_kustomization_lists_every_manifest():
    listed = set(kustomization()["resources"])
    manifests = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml", "haproxy-ingress-values.yaml"}
    assert listed == manifests
    for path in [*K8S.rglob("*.yaml")]:
        assert docs(path), path
    overlay = kustomization(K8S / "real-model")
    assert overlay["resources"][0] == ".." and all((K8S / "real-model" / r).is_file() for r in overlay["resources"][1:])
    assert all((K8S / "real-model" / p["path"]).is_file() for p in overlay["patches"])


@pytest.mark.parametrize("version", VERSIONS)
def test_every_object_validates_strictly_against_the_kubernetes_schemas(version):
    objs = [*objects(), *secrets(), *docs(K8S / "real-model" / "models-pvc.yaml"), real_model_deployment()]
    assert {o["kind"] for o in objs} >= {"Deployment", "Service", "Ingress", "HorizontalPodAutoscaler",
                                         "PersistentVolumeClaim", "StatefulSet", "Secret"}  # fmt: skip
    for obj in objs:
        kubernetes_validate.validate(obj, version, strict=True)  # raises ValidationError, naming the field
    bad = copy.deepcopy(one("Deployment"))
    app_container(bad)["ports"][0]["containerport"] = 8501  # the check is real: a misspelt field fails
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(bad, version, strict=True)


def test_the_port_and_probes_are_streamlits():
    port = tomllib.loads((ROOT / "deploy" / "streamlit.toml").read_text())["server"]["port"]
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert f"EXPOSE {port}" in dockerfile and f"127.0.0.1:{port}{HEALTH}" in dockerfile
    c = app_container()
    named = {p["name"]: p["containerPort"] for p in c["ports"]}
    assert list(named.values()) == [port]
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        get = c[probe]["httpGet"]
        assert get["path"] == HEALTH and named.get(get["port"], get["port"]) == port, probe
    # a busy pod is taken out of the rotation long before it is restarted (a restart ends its sessions)
    ready, live = c["readinessProbe"], c["livenessProbe"]
    assert ready["periodSeconds"] * ready["failureThreshold"] * 4 <= live["periodSeconds"] * live["failureThreshold"]
    svc = one("Service", "attention-lab")
    assert [named.get(p["targetPort"], p["targetPort"]) for p in svc["spec"]["ports"]] == [port]
    assert svc["metadata"]["annotations"]["haproxy.org/check-http"] == HEALTH


def test_names_and_selectors_resolve():
    deploy, labels = one("Deployment"), one("Deployment")["spec"]["template"]["metadata"]["labels"]
    assert deploy["spec"]["selector"]["matchLabels"].items() <= labels.items()
    for svc in (one("Service", "attention-lab"), one("PodDisruptionBudget")):
        selector = svc["spec"]["selector"]
        assert selector.get("matchLabels", selector).items() <= labels.items()
    backend = one("Ingress")["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    svc = one("Service", backend["name"])
    assert backend["port"]["name"] in [p["name"] for p in svc["spec"]["ports"]]
    target = one("HorizontalPodAutoscaler")["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", deploy["metadata"]["name"])
    pg, pg_svc = one("StatefulSet"), one("Service", "attention-lab-postgres")
    assert pg["spec"]["serviceName"] == pg_svc["metadata"]["name"]
    assert pg_svc["spec"]["selector"].items() <= pg["spec"]["template"]["metadata"]["labels"].items()
    assert all(o["metadata"].get("labels", {}).get("app.kubernetes.io/name") == "attention-lab"
               for o in objects() if o["kind"] != "Namespace")  # fmt: skip


def test_every_environment_variable_is_one_the_app_reads():
    reads = env_names_the_app_reads()
    assert {"ATTENTION_LAB_CACHE", "ATTENTION_LAB_DB", "ATTENTION_LAB_MODELS", "ATTENTION_LAB_MAX_PARAMS"} <= reads
    glibc = {"MALLOC_ARENA_MAX"}  # read by the C library; the Dockerfile and `make run` set it too
    for deploy in (one("Deployment"), real_model_deployment()):
        names = [e["name"] for e in app_container(deploy)["env"]]
        assert len(names) == len(set(names)) and set(names) - glibc <= reads, set(names) - glibc - reads
    env = {e["name"]: e for e in app_container()["env"]}
    assert env["MALLOC_ARENA_MAX"]["value"] == "2" and "MALLOC_ARENA_MAX=2" in (ROOT / "Dockerfile").read_text()


def test_the_variant_cache_is_the_shared_volume():
    c, spec = app_container(), one("Deployment")["spec"]["template"]["spec"]
    cache = next(e["value"] for e in c["env"] if e["name"] == "ATTENTION_LAB_CACHE")
    mount = next(m for m in c["volumeMounts"] if Path(cache).is_relative_to(m["mountPath"]))
    claim = next(v for v in spec["volumes"] if v["name"] == mount["name"])["persistentVolumeClaim"]["claimName"]
    assert one("PersistentVolumeClaim", claim)["spec"]["accessModes"] == ["ReadWriteMany"]
    assert not mount.get("readOnly")
    # the image's own default is the same folder, so the volume replaces exactly what the image would use
    assert f"ATTENTION_LAB_CACHE={cache}" in (ROOT / "Dockerfile").read_text()
    assert spec["securityContext"]["runAsUser"] == 10001 and "--uid 10001" in (ROOT / "Dockerfile").read_text()


def test_the_database_url_comes_from_a_secret_and_reaches_the_statefulsets_database():
    ref = next(e for e in app_container()["env"] if e["name"] == "ATTENTION_LAB_DB")["valueFrom"]["secretKeyRef"]
    secret = next(s for s in secrets() if s["metadata"]["name"] == ref["name"])
    url = base64.b64decode(secret["data"][ref["key"]]).decode()
    assert url.startswith("postgresql://")
    u = make_url(normalize_url(url))  # what store.open_store does with it
    assert u.drivername == "postgresql+psycopg"
    pg = app_container(one("StatefulSet"))
    env = {e["name"]: e for e in pg["env"]}
    svc = one("Service", "attention-lab-postgres")
    assert (u.host, u.port) == (svc["metadata"]["name"], svc["spec"]["ports"][0]["port"])
    assert (u.username, u.database) == (env["POSTGRES_USER"]["value"], env["POSTGRES_DB"]["value"])
    pw_ref = env["POSTGRES_PASSWORD"]["valueFrom"]["secretKeyRef"]
    pg_secret = next(s for s in secrets() if s["metadata"]["name"] == pw_ref["name"])
    assert base64.b64decode(pg_secret["data"][pw_ref["key"]]).decode() == u.password
    # the real env files are never committed: kustomize refuses to build until they are written
    ignored = (ROOT / ".gitignore").read_text()
    assert "/deploy/k8s/*.env" in ignored.splitlines()


def test_the_real_model_overlay_fits_the_model_it_allows():
    base, real = app_container(), app_container(real_model_deployment())
    env = {e["name"]: e["value"] for e in real["env"] if "value" in e}
    mount = next(m for m in real["volumeMounts"] if m["name"] == "models")
    assert env["ATTENTION_LAB_MODELS"] == mount["mountPath"] and mount["readOnly"]
    limit = quantity(real["resources"]["limits"]["memory"])
    assert limit > quantity(base["resources"]["limits"]["memory"])
    max_params = int(float(env["ATTENTION_LAB_MAX_PARAMS"]))  # as models.published.checkpoints.max_params reads it
    assert max_params >= 494_032_768  # Qwen2.5-0.5B, the measured model
    assert max_params * 8 <= limit  # the loader's own rule: 4 bytes a weight, as much again to run it
    for c in (base, real):
        req, lim = c["resources"]["requests"], c["resources"]["limits"]
        assert quantity(req["memory"]) <= quantity(lim["memory"]) and quantity(req["cpu"]) <= quantity(lim["cpu"])


def test_the_ingress_controller_keeps_websockets_and_logs_no_query_strings():
    values = yaml.safe_load((K8S / "haproxy-ingress-values.yaml").read_text())["controller"]
    assert one("Ingress")["spec"]["ingressClassName"] == values["ingressClass"]
    fmt = values["config"]["log-format"]
    assert "%[var(txn.base)]" in fmt and not re.search(r"%(\{[^}]*\})?(r|HU|HQ)\b", fmt)  # path, never the query
    from streamlit import config
    from streamlit.web.server.starlette.starlette_server_config import DEFAULT_WEBSOCKET_PING_INTERVAL

    ping = config.get_option("server.websocketPingInterval") or DEFAULT_WEBSOCKET_PING_INTERVAL
    tunnel = values["config"]["timeout-tunnel"]
    seconds = int(tunnel[:-1]) * {"s": 1, "m": 60, "h": 3600}[tunnel[-1]]
    assert seconds >= 10 * ping  # an idle lesson's websocket carries a ping well inside the tunnel timeout
    annotations = one("Service", "attention-lab")["metadata"]["annotations"]
    assert annotations["haproxy.org/cookie-persistence"]  # the controller reads it on the Service, not the Ingress


def test_downloads_from_the_page_are_off_in_the_cluster():
    """Issue 39 §8: the flag is "0" (so even `kubectl port-forward`, a loopback client with no proxy header, gets
    no Hub box), and the ingress controller adds X-Forwarded-For, which turns them off without the flag too."""
    from streamlit.runtime.context import StreamlitHeaders

    from ui.fetch_panel import DOWNLOADS_ENV, allowed

    for deploy in (one("Deployment"), real_model_deployment()):
        flag = {e["name"]: e.get("value") for e in app_container(deploy)["env"]}[DOWNLOADS_ENV]
        assert flag == "0" and not allowed(flag, "0.0.0.0", StreamlitHeaders([]), "127.0.0.1")
    values = yaml.safe_load((K8S / "haproxy-ingress-values.yaml").read_text())["controller"]["config"]
    assert values["forwarded-for"] == "true"
    assert not allowed("", "0.0.0.0", StreamlitHeaders([("X-Forwarded-For", "10.0.0.9")]), "10.1.0.4")
