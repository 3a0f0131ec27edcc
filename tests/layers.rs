//! The layers of `src/` (docs/design.md, "Layers"): `lib.rs` declares them
//! bottom-up, each module uses only its own layer and the layers below it,
//! and no modules use each other in a circle. Read from the source, so a
//! `use` that reaches up fails here, before review.
//!
//! Production code is what precedes a file's first `#[cfg(test)]`: tests
//! sit at the end of every file and may build their fixtures with any layer.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Layers that glue the core to a platform: they may use every layer, and
/// none may use them.
const GLUE: [&str; 1] = ["wasm"];

/// One module's source: its path below `src/` ("page/dom.rs") and its text.
struct Source {
    path: String,
    text: String,
}

/// A module's name from its path: "page/dom.rs" → "page::dom", "page/mod.rs" → "page".
fn module_of(path: &str) -> String {
    let path = path.trim_end_matches(".rs");
    let path = path.strip_suffix("/mod").unwrap_or(path);
    path.replace('/', "::")
}

/// The code a module runs in production: everything before its tests,
/// without comments (a doc link is no use).
fn production(text: &str) -> String {
    let code = text.find("\n#[cfg(test)]").map_or(text, |i| &text[..i]);
    code.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// The layers in the order `lib.rs` declares them (`pub mod NAME;`).
fn declared_layers(lib: &str) -> Vec<String> {
    lib.lines().filter_map(|l| l.trim().strip_prefix("pub mod ")?.strip_suffix(';').map(str::to_string)).collect()
}

/// The modules `source` uses: `crate::a::b` paths, `super::` paths, and a
/// folder's `mod.rs` naming one of its children. Each resolves to the
/// longest known module it names.
fn uses(source: &Source, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let me = module_of(&source.path);
    let code = &production(&source.text);
    let is_folder = source.path.ends_with("mod.rs");
    let mut found = BTreeSet::new();
    let resolve = |segments: Vec<&str>, found: &mut BTreeSet<String>| {
        for n in (1..=segments.len()).rev() {
            let candidate = segments[..n].join("::");
            if modules.contains(&candidate) {
                if candidate != me {
                    found.insert(candidate);
                }
                return;
            }
        }
    };
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < code.len() {
        let rest = &code[i..];
        let boundary =
            i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b':');
        if boundary && (rest.starts_with("crate::") || rest.starts_with("super::")) {
            let path: String =
                rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':').collect();
            // `crate::` starts at the root; each `super::` climbs one module up from this one.
            let mut base: Vec<&str> = if path.starts_with("crate::") { Vec::new() } else { me.split("::").collect() };
            let mut segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).skip(1).collect();
            base.pop();
            while segments.first() == Some(&"super") {
                segments.remove(0);
                base.pop();
            }
            let full: Vec<&str> = base.iter().copied().chain(segments.iter().copied()).collect();
            resolve(full, &mut found);
            i += path.len().max(1);
            continue;
        }
        if is_folder && boundary {
            let word: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if !word.is_empty() && rest[word.len()..].starts_with("::") {
                let child = format!("{me}::{word}");
                if modules.contains(&child) && !code[..i].ends_with("mod ") {
                    found.insert(child);
                }
            }
            if !word.is_empty() {
                i += word.len();
                continue;
            }
        }
        i += rest.chars().next().map_or(1, char::len_utf8);
    }
    found
}

/// What is wrong with a source tree: modules outside the layer folders,
/// layers without their documented role, uses of a higher layer, circles.
fn problems(lib: &str, sources: &[Source]) -> Vec<String> {
    let layers = declared_layers(lib);
    let rank = |module: &str| -> Option<usize> {
        let layer = module.split("::").next()?;
        if GLUE.contains(&layer) {
            return Some(usize::MAX);
        }
        layers.iter().position(|l| l == layer)
    };
    let mut out = Vec::new();
    let modules: BTreeSet<String> = sources.iter().map(|s| module_of(&s.path)).collect();
    for s in sources {
        if !s.path.contains('/') {
            out.push(format!("src/{} is a loose module: it belongs in a layer folder", s.path));
        } else if rank(&module_of(&s.path)).is_none() {
            out.push(format!("src/{} is in a folder lib.rs does not declare as a layer", s.path));
        }
        if s.path.matches('/').count() == 1 && s.path.ends_with("/mod.rs") {
            let doc: Vec<&str> = s.text.lines().take_while(|l| l.starts_with("//!")).collect();
            if doc.len() < 2 || !doc.iter().any(|l| l.starts_with("//! May use")) {
                out.push(format!(
                    "src/{} does not say what the layer does and what it may use (\"//! May use …\")",
                    s.path
                ));
            }
        }
    }
    let graph: BTreeMap<String, BTreeSet<String>> =
        sources.iter().map(|s| (module_of(&s.path), uses(s, &modules))).collect();
    for (from, targets) in &graph {
        for to in targets {
            if let (Some(a), Some(b)) = (rank(from), rank(to)) {
                if b > a && b != usize::MAX {
                    out.push(format!("{from} uses {to}, a higher layer"));
                } else if b == usize::MAX && a != usize::MAX {
                    out.push(format!("{from} uses {to}, the platform glue"));
                }
            }
        }
    }
    for circle in circles(&graph) {
        out.push(format!("modules use each other: {}", circle.join(" → ")));
    }
    out
}

/// Every circle of uses, one per strongly connected group (Tarjan's
/// algorithm would do the same; the graphs here are a few dozen nodes).
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let reaches = |from: &str, to: &str| -> bool {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_string()];
        while let Some(n) = stack.pop() {
            for next in graph.get(&n).into_iter().flatten() {
                if next == to {
                    return true;
                }
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        false
    };
    let mut grouped: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::new();
    for node in graph.keys() {
        if grouped.contains(node) || !reaches(node, node) {
            continue;
        }
        let group: Vec<String> = graph
            .keys()
            .filter(|other| *other == node || (reaches(node, other) && reaches(other, node)))
            .cloned()
            .collect();
        grouped.extend(group.iter().cloned());
        out.push(group);
    }
    out
}

fn read_tree(root: &Path, dir: &Path, out: &mut Vec<Source>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).expect("src/ is readable").map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        let rel = path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
        if path.is_dir() {
            if rel != "bin" {
                read_tree(root, &path, out);
            }
        } else if rel.ends_with(".rs") && rel != "lib.rs" {
            out.push(Source { path: rel, text: std::fs::read_to_string(&path).unwrap() });
        }
    }
}

#[test]
fn src_is_layered_without_circles() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(root.join("lib.rs")).unwrap();
    let mut sources = Vec::new();
    read_tree(&root, &root, &mut sources);
    assert!(declared_layers(&lib).len() >= 5, "lib.rs declares its layers as `pub mod NAME;`");
    let problems = problems(&lib, &sources);
    assert!(problems.is_empty(), "the layers of src/ are broken:\n  {}", problems.join("\n  "));
}

fn planted(files: &[(&str, &str)]) -> Vec<Source> {
    files.iter().map(|(p, t)| Source { path: p.to_string(), text: t.to_string() }).collect()
}

const LIB: &str = "pub mod low;\npub mod high;\npub mod wasm;\n";
const DOC: &str = "//! What it does.\n//! May use: the layers below.\n";

#[test]
fn an_upward_use_a_circle_and_a_loose_module_are_found() {
    let sources = planted(&[
        ("low/mod.rs", DOC),
        ("low/a.rs", "use crate::high::b::B;\n"),
        ("low/c.rs", "use super::d::D;\n"),
        ("low/d.rs", "pub fn d() { super::c::f() }\n"),
        ("high/mod.rs", "//! No layer doc.\n"),
        ("high/b.rs", "use crate::low::a;\n#[cfg(test)]\nmod tests { use crate::wasm::x; }\n"),
        ("wasm/mod.rs", DOC),
        ("wasm/x.rs", "use crate::high::b;\n"),
        ("loose.rs", ""),
    ]);
    let found = problems(LIB, &sources);
    let has = |s: &str| found.iter().any(|p| p.contains(s));
    assert!(has("low::a uses high::b, a higher layer"), "{found:?}");
    assert!(has("low::c → low::d") || has("low::d → low::c"), "{found:?}");
    assert!(has("low::a → high::b") || has("high::b → low::a"), "{found:?}");
    assert!(has("src/loose.rs is a loose module"), "{found:?}");
    assert!(has("src/high/mod.rs does not say"), "{found:?}");
    assert!(!has("the platform glue"), "a test module may use the glue, and the glue every layer: {found:?}");
}

#[test]
fn a_folder_using_its_child_and_the_child_its_folder_is_a_circle() {
    let sources = planted(&[
        ("low/mod.rs", &format!("{DOC}pub mod a;\nuse a::run;\n")),
        ("low/a.rs", "use super::helper;\n"),
        ("high/mod.rs", DOC),
    ]);
    let found = problems(LIB, &sources);
    assert!(found.iter().any(|p| p.contains("low → low::a") || p.contains("low::a → low")), "{found:?}");
}
