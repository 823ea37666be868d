//! Writes the JSON Schemas of the Chorus wire format to a directory
//! (default: the repository's `docs/schemas/`).
//!
//! Usage: `cargo run -p chorus-bus --bin chorus-schemas [DIR]`

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/schemas"));
    std::fs::create_dir_all(&dir)?;
    for (name, schema) in chorus_bus::schema::schemas() {
        let path = dir.join(format!("{name}.json"));
        std::fs::write(&path, chorus_bus::schema::schema_text(&schema))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
