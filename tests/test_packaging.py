"""manifest.json and hacs.json are what HA and HACS accept; the core stays HA-free."""

from __future__ import annotations

import ast
import json
from pathlib import Path

ROOT = Path(__file__).parent.parent
INTEGRATION = ROOT / "custom_components" / "anomaly_monitor"
HACS_KEYS = {
    "name",
    "content_in_root",
    "country",
    "filename",
    "hacs",
    "hide_default_branch",
    "homeassistant",
    "persistent_directory",
    "render_readme",
    "zip_release",
}


def test_manifest_has_every_required_key() -> None:
    """The keys HA and HACS need for a custom integration, with sane values."""
    manifest = json.loads((INTEGRATION / "manifest.json").read_text())
    assert manifest["domain"] == "anomaly_monitor" == INTEGRATION.name
    assert manifest["name"]
    assert manifest["version"].count(".") == 2
    assert manifest["codeowners"]
    assert all(c.startswith("@") for c in manifest["codeowners"])
    assert manifest["documentation"].startswith("https://")
    assert manifest["issue_tracker"].startswith("https://")
    assert manifest["iot_class"] in {"calculated", "local_polling", "local_push"}
    assert manifest["config_flow"] is True
    assert manifest["integration_type"] in {"service", "hub", "helper"}
    assert isinstance(manifest["requirements"], list)
    assert not any("llama" in r for r in manifest["requirements"])
    assert list(manifest)[:2] == ["domain", "name"]
    assert list(manifest)[2:] == sorted(list(manifest)[2:])


def test_hacs_json_uses_only_keys_hacs_accepts() -> None:
    """HACS rejects unknown keys."""
    hacs = json.loads((ROOT / "hacs.json").read_text())
    assert set(hacs) <= HACS_KEYS
    assert hacs["name"]


def test_translations_cover_strings_used_in_code() -> None:
    """Every translation key the code raises or shows exists in en.json."""
    en = json.loads((INTEGRATION / "translations" / "en.json").read_text())
    source = "\n".join(p.read_text() for p in INTEGRATION.rglob("*.py"))
    for key in ("entry_not_found", "entry_not_loaded", "entry_required", "analysis_failed"):
        assert f'"{key}"' in source
        assert key in en["exceptions"]
    assert set(en["issues"]["anomaly"]["fix_flow"]["step"]["init"]["menu_options"]) == {
        "acknowledge",
        "false_alarm",
    }


def test_core_never_imports_home_assistant() -> None:
    """The detection core runs without Home Assistant: no HA import, no import out of core."""
    core = INTEGRATION / "core"
    for path in core.rglob("*.py"):
        package = path.parent.relative_to(INTEGRATION.parent).parts
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                assert not any(a.name.split(".")[0] == "homeassistant" for a in node.names), path
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                assert node.module.split(".")[0] != "homeassistant", path
            elif isinstance(node, ast.ImportFrom):
                target = package[: len(package) - (node.level - 1)]
                assert target[:2] == ("anomaly_monitor", "core"), f"{path} leaves the core"


def _png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", path
    return int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")


def test_hacs_essentials_brand_licence_and_oldest_ha() -> None:
    """HACS checks the brand icons and licence; hacs.json claims the HA version CI runs."""
    assert _png_size(INTEGRATION / "brand" / "icon.png") == (256, 256)
    assert _png_size(INTEGRATION / "brand" / "icon@2x.png") == (512, 512)
    assert "Apache License" in (ROOT / "LICENSE").read_text()
    assert 'license = "Apache-2.0"' in (ROOT / "pyproject.toml").read_text()
    pins = [
        tuple(int(part) for part in line.split("==")[1].split("."))
        for path in ROOT.glob("requirements*.txt")
        for line in path.read_text().splitlines()
        if line.startswith("homeassistant==")
    ]
    claimed = json.loads((ROOT / "hacs.json").read_text())["homeassistant"]
    assert tuple(int(part) for part in claimed.split(".")) == min(pins)


def test_no_after_dependency_can_break_setup() -> None:
    """ai_task pulls in conversation and its requirements: used lazily, never a dependency."""
    manifest = json.loads((INTEGRATION / "manifest.json").read_text())
    assert "ai_task" not in manifest["after_dependencies"] + manifest["dependencies"]
