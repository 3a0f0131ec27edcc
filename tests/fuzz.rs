//! A bounded fuzz pass over HTML → snapshot → extraction (issue 10): random
//! sites of malformed, nested markup (tables, forms, templates, raw text,
//! stray end tags, declarative shadow roots) must never panic, must give a top-down-closed template
//! (empty only where it says that every page found held the key page's own text),
//! and the saved template must re-parse to exactly the nodes reported
//! whenever the whole page does (a page whose tree no markup gives, see
//! `html::template_html`, cannot promise it of any part).
//! `PROPTEST_CASES` raises the budget (default 48 cases, seconds).

use proptest::prelude::*;
use template_extractor::base::config::Config;
use template_extractor::candidates::page_source::PageSource;
use template_extractor::decide::evidence::Weakness;
use template_extractor::decide::template::is_top_down_closed;
use template_extractor::extraction::extract::extract;
use template_extractor::page::html::{parse, snapshot, template_html};
use template_extractor::sources::site_folder::SiteFolder;

/// One piece of markup: any mix of well-formed and broken fragments.
fn fragment() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("text é ".to_string()),
        Just("<br>".to_string()),
        Just("<img src=x.png>".to_string()),
        Just("</div>".to_string()),
        Just("</p>".to_string()),
        Just("<p>para".to_string()),
        Just("<li>item".to_string()),
        Just("<td>cell".to_string()),
        Just("<tr>".to_string()),
        Just("<option>o".to_string()),
        Just("<script>if (a < b) {}</script>".to_string()),
        Just("<style>p>a{}</style>".to_string()),
        Just("<!-- c -->".to_string()),
        Just("&amp; &lt; &nbsp;".to_string()),
        (0u8..5).prop_map(|i| format!("<a href=\"p{i}.html\">link {i}</a>")),
        Just("<a href=\"p1.html\"><a href=\"p2.html\">nested</a></a>".to_string()),
        Just("<template shadowrootmode=open><b>shadow</b><slot></slot></template>".to_string()),
    ];
    leaf.prop_recursive(4, 40, 5, |inner| {
        (
            prop::sample::select(vec![
                "div", "nav", "ul", "table", "tbody", "caption", "form", "template", "select", "p", "span", "header",
                "footer", "section", "li", "b", "i", "colgroup", "dl", "button",
            ]),
            prop::collection::vec(inner, 0..5),
            any::<bool>(),
        )
            .prop_map(|(tag, kids, close)| {
                format!(
                    "<{tag} class=\"c{}\">{}{}",
                    kids.len(),
                    kids.concat(),
                    if close { format!("</{tag}>") } else { String::new() }
                )
            })
    })
}

fn site() -> impl Strategy<Value = Vec<String>> {
    let menu = "<nav><a href=\"p1.html\">1</a><a href=\"p2.html\">2</a><a href=\"p3.html\">3</a></nav>";
    prop::collection::vec(prop::collection::vec(fragment(), 1..6), 4).prop_map(move |pages| {
        pages.into_iter().map(|body| format!("<!doctype html><title>t</title>{menu}{}{menu}", body.concat())).collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(48), ..ProptestConfig::default() })]
    #[test]
    fn random_sites_extract_safely(pages in site()) {
        let dir = std::env::temp_dir().join(format!("tex-fuzz-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for (i, html) in pages.iter().enumerate() {
            let name = if i == 0 { "index.html".to_string() } else { format!("p{i}.html") };
            std::fs::write(dir.join(name), html).unwrap();
        }
        let source = SiteFolder::new(&dir, 200_000);
        let cfg = Config { cs_size: 2, ..Config::default() };
        let key = futures::executor::block_on(source.load(&source.url_of("index.html"))).unwrap();
        let extraction = futures::executor::block_on(extract(&cfg, &source, &key));
        prop_assert!(extraction.is_ok(), "every page links to the others: {:?}", extraction.err());
        if let Ok(x) = extraction {
            // An empty template is an answer only when said: every page
            // found held the key page's own text (pages of the menu alone).
            let said = x.evidence.weakness == Some(Weakness::NoVoters) && x.evidence.warning.is_some();
            prop_assert!(x.template_nodes > 0 || said, "{:?}", x.evidence);
            prop_assert!(is_top_down_closed(&key.tree, &x.template));
            let doc = parse(&pages[0]);
            prop_assert_eq!(snapshot(&doc).unwrap().len(), key.tree.len());
            let all = vec![true; key.tree.len()];
            let whole = snapshot(&parse(&template_html(&doc, &all))).unwrap();
            let tags = |t: &template_extractor::page::dom::Tree| t.nodes().map(|(_, n)| n.tag.to_string()).collect::<Vec<_>>();
            if tags(&whole) != tags(&key.tree) {
                let _ = std::fs::remove_dir_all(&dir);
                return Ok(());
            }
            let saved = snapshot(&parse(&template_html(&doc, &x.template))).unwrap();
            let kept: Vec<&str> = key.tree.nodes().filter(|(id, _)| x.template[id.index()]).map(|(_, n)| &*n.tag).collect();
            let reparsed: Vec<&str> = saved.nodes().map(|(_, n)| &*n.tag).collect();
            prop_assert_eq!(reparsed, kept, "the saved template re-parses to the nodes reported");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
