#!/usr/bin/env python3
"""Where `tex collect`'s time goes, per stage, from a `perf record
--call-graph dwarf` profile: each sample is counted once, in the first stage
(in the order of STAGES) one of its stack's frames belongs to.

Usage:
  perf record -F 499 --call-graph dwarf,32768 -o perf.data TEX collect --jobs 1 --out /dev/null INPUT...
  perf script -i perf.data --no-inline -F comm,tid,ip,sym | scripts/stage_profile.py

TEX built with line tables (`cargo build --profile profiling`, see
docs/collection.md, "Where the time goes").
"""
import sys
from collections import Counter

# A sample's stage is found in two steps: the part of the run it belongs to
# (its outermost known frame: admitting a page, an extraction, serving a
# page the skeletons, writing its output), then within admission and
# extraction the step (its innermost known frame). So a list mapped while
# serving is serving, and a stored page unpacked for a load is unpacking
# wherever the load came from.
SERVING = ["cluster_agreement::", "PreparedCluster::serve", "ServedPage::", "PreparedCluster::fits"]
ADMISSION = ["run::site_input", "page_admission::admit", "PageStore::insert"]
OUTPUT = ["page_content::", "rendered_content", "judge_template", "serde_json::", "run::flush", "PageLine"]
EXTRACTION = ["extract_page", "extraction::extract::", "site_collection::learn"]
ADMISSION_STEPS = [
    ("decode (charset, binary check)", ["page_body::decode", "page_body::is_binary", "encoding_rs::"]),
    ("render body for output", ["RenderedBody::render"]),
    ("parse (html5ever)", ["html5ever::", "markup5ever::", "tendril::", "scraper::", "page::html::parse"]),
    ("snapshot, pack, layout signature", [""]),
]
EXTRACTION_STEPS = [
    ("unpack a stored page for a load", ["PackedTree::unpack", "PageStore::tree", "packed_tree::"]),
    ("link order (links resolved, sorted)", ["link_order::", "hyperlink::", "fetch_policy::", "links_of", "address::"]),
    ("mapping (key page with each candidate, ETDM)",
     ["compare_ahead::compare", "compare::mapping::", "compare::rtdm::", "compare::equality::", "state_marker::",
      "repeated_lists::", "lone_kin::"]),
    ("votes (template, text recurrence, voters)",
     ["decide::template::", "text_recurrence::", "decide::voters::", "layout_agreement::", "current_item::",
      "decide::evidence::"]),
    ("CS search (complete subdigraph)", ["complete_subdigraph::"]),
    ("learning a cluster from a representative", ["Cluster::learn"]),
    ("rest of an extraction", [""]),
]
PARTS = [
    ("serving: skeletons mapped onto a page, majority / union", SERVING, None),
    ("read (files, WARC, JSONL)", ["collection::input::"], None),
    ("admission", ADMISSION, ADMISSION_STEPS),
    ("output (content sliced, judgement, JSON, write)", OUTPUT, None),
    ("extraction", EXTRACTION, EXTRACTION_STEPS),
    ("allocator, kernel, other", [""], None),
]


def has(frames, keys):
    return any(k in f for f in frames for k in keys)


def stage(frames):
    for part, keys, steps in PARTS:
        if has(frames, keys):
            if steps is None:
                return part
            for step, step_keys in steps:
                if has(frames, step_keys):
                    return f"{part}: {step}"
    return "allocator, kernel, other"


def samples(lines):
    """Each sample's frames (function names, leaf first)."""
    frames = []
    for line in lines:
        if not line.strip():
            if frames:
                yield frames
            frames = []
        elif line[0] in " \t":
            parts = line.split(None, 1)
            frames.append(parts[1].rsplit(" (", 1)[0] if len(parts) > 1 else "")
        else:
            frames = []
    if frames:
        yield frames


def main():
    counts = Counter(stage(frames) for frames in samples(sys.stdin))
    total = sum(counts.values())
    order = [p if s is None else f"{p}: {step}" for p, _, s in PARTS for step, _ in (s or [(None, None)])]
    for name in order:
        print(f"{name:<66} {100 * counts[name] / max(total, 1):5.1f} %")
    print(f"{'samples':<66} {total}")


if __name__ == "__main__":
    main()
