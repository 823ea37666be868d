//! Links `chorus-pool` with packed relative relocations (docs/performance.md, "seventh part
//! of issue 31"); agents/cli/build.rs does the same.
//!
//! A position-independent executable carries a 24-byte entry for each pointer the
//! loader fixes at start (`chorus`: 73,492 entries, 1.7 MiB; `chorus-pool`: 16,878,
//! 0.4 MiB), and the loader reads all of them, so every process kept those pages
//! resident after its first millisecond for nothing. `-z pack-relative-relocs`
//! (DT_RELR) stores them as bitmaps of a few kilobytes. The executable stays
//! position-independent (ASLR as before). Only for x86-64 Linux with glibc: it needs GNU
//! ld 2.38+ (or lld 15+) to link and glibc 2.36+ to run (Debian bookworm, the images'
//! base; an older glibc refuses the binary: `GLIBC_ABI_DT_RELR` not found).

fn main() {
    let cfg = |key: &str| std::env::var(key).unwrap_or_default();
    if cfg("CARGO_CFG_TARGET_ARCH") == "x86_64"
        && cfg("CARGO_CFG_TARGET_OS") == "linux"
        && cfg("CARGO_CFG_TARGET_ENV") == "gnu"
    {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
