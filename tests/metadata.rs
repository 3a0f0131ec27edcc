//! The project's metadata tells the truth: one version (Cargo.toml's) in
//! every built manifest, a `rust-version` every locked dependency accepts,
//! the declared licence present as a file, and BUILDING.md naming that
//! `rust-version`.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn json(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn version_number(v: &str) -> Vec<u32> {
    v.split('.').map(|p| p.parse().unwrap()).collect()
}

#[test]
fn cargo_toml_is_the_only_source_of_the_version() {
    assert_eq!(json("manifest.json").get("version"), None, "build.sh stamps Cargo.toml's version into the manifest");
    assert_eq!(json("package.json").get("version"), None, "the npm package is private and carries no version");
}

#[test]
fn built_manifests_carry_the_cargo_version() {
    let built: Vec<String> = ["dist/chrome/manifest.json", "dist/firefox/manifest.json"]
        .into_iter()
        .filter(|p| Path::new(p).is_file())
        .map(str::to_owned)
        .collect();
    if built.is_empty() {
        eprintln!("skipped: no dist/*/manifest.json yet (./build.sh builds them)");
        return;
    }
    for path in built {
        assert_eq!(json(&path)["version"], VERSION, "{path}");
    }
}

#[test]
fn rust_version_is_what_the_locked_dependencies_need() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo).args(["metadata", "--format-version", "1", "--locked"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let meta: Value = serde_json::from_slice(&out.stdout).unwrap();
    let ours = version_number(env!("CARGO_PKG_RUST_VERSION"));
    let needed = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| Some((version_number(p["rust_version"].as_str()?), p["name"].as_str()?)))
        .max()
        .unwrap();
    assert_eq!(ours, needed.0, "rust-version is {ours:?}; {} needs {:?}", needed.1, needed.0);
}

#[test]
fn the_declared_licence_is_the_licence_file() {
    let licence = std::fs::read_to_string("LICENSE").expect("a LICENSE file");
    assert_eq!(env!("CARGO_PKG_LICENSE"), "MIT");
    assert!(licence.starts_with("MIT License"), "LICENSE holds the MIT licence");
    assert_eq!(json("package.json")["license"], "MIT");
}

/// A reader who installs the toolchain BUILDING.md names must be able to build.
#[test]
fn building_md_names_the_rust_version_of_cargo_toml() {
    let building = std::fs::read_to_string("BUILDING.md").expect("a BUILDING.md file");
    let wanted = format!("**{} or newer**", env!("CARGO_PKG_RUST_VERSION"));
    assert!(building.contains(&wanted), "BUILDING.md should name Rust {wanted}");
}

/// The popup says "up to N other pages" before the core runs, so it holds
/// the core's default number of loads itself.
#[test]
fn the_popup_states_the_core_default_number_of_loads() {
    let runner = std::fs::read_to_string("extension/runner.js").unwrap();
    let wanted =
        format!("const DEFAULT_MAX_LOADS = {};", template_extractor::base::config::Config::default().max_loads);
    assert!(runner.contains(&wanted), "extension/runner.js should say {wanted}");
}

/// The popup says a weak result's sentence from its own messages
/// (`weak_<kind>`, in every locale); in English it is the core's sentence,
/// which the CLI and the collection print.
#[test]
fn the_popup_says_each_weakness_as_the_core_does() {
    use template_extractor::decide::evidence::Weakness;
    let en = json("extension/_locales/en/messages.json");
    let es = json("extension/_locales/es/messages.json");
    for w in Weakness::ALL {
        let key = format!("weak_{}", serde_json::to_value(w).unwrap().as_str().unwrap());
        assert_eq!(en[&key]["message"].as_str(), Some(w.to_string().as_str()), "{key}");
        assert!(es[&key]["message"].as_str().is_some_and(|s| !s.is_empty()), "{key} in Spanish");
    }
}
