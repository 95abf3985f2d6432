//! The PNG picture: the SVG rasterised by resvg, with the machine's fonts for the labels.

use std::sync::{Arc, OnceLock};

use resvg::usvg::fontdb::Database;
use resvg::{tiny_skia, usvg};

use super::{RenderError, SIZES};

/// The system fonts, found once: scanning the font directories costs far more than a render.
fn fonts() -> &'static Arc<Database> {
    static FONTS: OnceLock<Arc<Database>> = OnceLock::new();
    FONTS.get_or_init(|| {
        let mut fonts = Database::new();
        fonts.load_system_fonts();
        Arc::new(fonts)
    })
}

/// Draws `svg` on `width` by `height` pixels (the width in [`SIZES`]); `has_text` says whether it
/// needs a font.
pub(super) fn rasterise(svg: &str, width: u32, height: u32, has_text: bool) -> Result<Vec<u8>, RenderError> {
    if !SIZES.contains(&width) {
        return Err(RenderError::Size(width));
    }
    let fonts = fonts();
    // Without a font usvg drops text silently; a board without its labels would mislead.
    if has_text && fonts.is_empty() {
        return Err(RenderError::NoFont);
    }
    let options = usvg::Options { fontdb: Arc::clone(fonts), ..usvg::Options::default() };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|error| RenderError::Rasterise(error.to_string()))?;
    let mut pixmap = tiny_skia::Pixmap::new(width, height)
        .ok_or_else(|| RenderError::Rasterise(format!("no {width}x{height} pixmap")))?;
    // The SVG's width and height are the pixmap's, so its viewBox already scales it to the pixmap.
    resvg::render(&tree, tiny_skia::Transform::identity(), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(|error| RenderError::Rasterise(error.to_string()))
}

#[cfg(test)]
mod tests {
    use damiera_engine::{Position, Variant};

    use super::super::{png, RenderOptions};
    use super::*;

    /// Width and height from the IHDR chunk, which a PNG must start with.
    fn dimensions(png: &[u8]) -> (u32, u32) {
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "the PNG signature");
        assert_eq!(&png[12..16], b"IHDR");
        let read = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
        (read(16), read(20))
    }

    #[test]
    fn every_start_position_becomes_a_png_of_the_requested_size() {
        for (variant, size) in [(Variant::Italian, 64), (Variant::Triestina, 300), (Variant::Turkish, 2048)] {
            let options = RenderOptions { labels: true, size, ..RenderOptions::default() };
            let image = png(&Position::start(variant), &options).unwrap();
            assert_eq!(dimensions(&image), (size, size), "{variant}");
        }
    }

    #[test]
    fn a_size_out_of_range_is_refused() {
        let start = Position::start(Variant::Italian);
        for size in [0, 63, 2049] {
            let options = RenderOptions { size, ..RenderOptions::default() };
            assert_eq!(png(&start, &options), Err(RenderError::Size(size)));
        }
    }

    /// Catches a machine without fonts, where usvg would leave the numbers out without a word.
    #[test]
    fn labels_are_drawn_with_a_system_font() {
        assert!(!fonts().is_empty(), "no system fonts: install fonts-dejavu-core");
        let start = Position::start(Variant::Italian);
        let plain = png(&start, &RenderOptions::default()).unwrap();
        let numbered = png(&start, &RenderOptions { labels: true, ..RenderOptions::default() }).unwrap();
        assert_ne!(plain, numbered, "the square numbers change the picture");
    }
}
