//! docs/topics.md carries the key layout generated from `chorus_bus::keys`; this fails
//! when the copy is stale (`CHORUS_BLESS=1` rewrites it).

const BEGIN: &str = "<!-- keys:begin -->\n";
const END: &str = "<!-- keys:end -->";

#[test]
fn the_key_table_in_docs_topics_md_is_the_codes() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/topics.md");
    let doc = std::fs::read_to_string(path).expect("read docs/topics.md");
    let start = doc.find(BEGIN).expect("begin marker") + BEGIN.len();
    let end = doc.find(END).expect("end marker");
    let want = chorus_bus::keys::table_markdown();
    if std::env::var_os("CHORUS_BLESS").is_some() {
        let fresh = format!("{}{want}{}", &doc[..start], &doc[end..]);
        std::fs::write(path, fresh).expect("write docs/topics.md");
        return;
    }
    assert_eq!(
        &doc[start..end],
        want,
        "docs/topics.md is stale: run CHORUS_BLESS=1 cargo test -p chorus-bus --test keys_doc"
    );
}
