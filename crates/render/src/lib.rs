//! perfectplay-render: the games' SVG drawings as pixels.
//!
//! [`rasterize`] draws an SVG (the boards of `perfectplay-core`'s `svg` methods) into an RGB
//! image, row-major, three bytes a pixel, over an opaque white background: what Gymnasium's
//! `render_mode="rgb_array"` returns and what video recorders take frame by frame.
//!
//! Text (coordinates, square numbers, the morris "in hand" line) is drawn with the fonts
//! installed on the machine, found once per process ([`fonts`]): the first of a list of common
//! sans-serif families that is present, else any installed face. A machine with no fonts at all
//! still gets every board, man and king; only the text is left out ([`Fonts::found`] says
//! which).

use std::sync::{Arc, OnceLock};

use resvg::tiny_skia::{Color, Pixmap, Transform};
use resvg::usvg::{fontdb, Options, Tree};

/// Why a drawing could not be rasterised.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// The text is not an SVG document resvg can read.
    #[error("not a readable SVG drawing: {0}")]
    Svg(String),
    /// The scale is not a positive finite number.
    #[error("scale must be a positive finite number, got {0}")]
    Scale(f32),
    /// The picture at this scale would be empty or larger than [`MAX_SIDE`] pixels a side.
    #[error("a {width} x {height} picture is out of range (each side 1 to {MAX_SIDE} pixels)")]
    Size {
        /// Width in pixels after scaling.
        width: f32,
        /// Height in pixels after scaling.
        height: f32,
    },
}

/// The longest side a picture may have, in pixels: 16 times the largest board drawing, and a
/// bound on the memory one call may take (3 bytes a pixel: 48 MiB at most).
pub const MAX_SIDE: u32 = 4096;

/// An RGB picture: `height` rows of `width` pixels, three bytes (red, green, blue) each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RgbImage {
    /// Pixels a row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// `height * width * 3` bytes, row after row.
    pub pixels: Vec<u8>,
}

impl RgbImage {
    /// The pixel at column `x`, row `y`.
    ///
    /// # Panics
    /// If `(x, y)` lies outside the picture.
    #[must_use]
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        assert!(
            x < self.width && y < self.height,
            "pixel ({x}, {y}) outside the picture"
        );
        let at = ((y * self.width + x) * 3) as usize;
        [self.pixels[at], self.pixels[at + 1], self.pixels[at + 2]]
    }
}

/// The fonts text is drawn with.
#[derive(Debug)]
pub struct Fonts {
    database: Arc<fontdb::Database>,
    family: Option<String>,
}

impl Fonts {
    /// Whether any font was found (without one, text is left out of the pictures).
    #[must_use]
    pub fn found(&self) -> bool {
        self.family.is_some()
    }

    /// The family drawn for the drawings' `sans-serif` text, if any font was found.
    #[must_use]
    pub fn family(&self) -> Option<&str> {
        self.family.as_deref()
    }
}

/// Families tried, in order, for `sans-serif`: fontdb's own default (Arial) is missing from
/// most Linux machines, where the text would then fall back to whatever `serif` resolves to.
const SANS_SERIF: &[&str] = &[
    "DejaVu Sans",
    "Liberation Sans",
    "Noto Sans",
    "Arial",
    "Helvetica",
    "FreeSans",
    "Ubuntu",
    "Cantarell",
];

/// The machine's fonts, loaded on first use (loading scans the font directories: a few
/// milliseconds to a second, once per process).
pub fn fonts() -> &'static Fonts {
    static FONTS: OnceLock<Fonts> = OnceLock::new();
    FONTS.get_or_init(|| {
        let mut database = fontdb::Database::new();
        database.load_system_fonts();
        let present = |name: &str| {
            database
                .faces()
                .any(|face| face.families.iter().any(|(family, _)| family == name))
        };
        let family = SANS_SERIF
            .iter()
            .find(|name| present(name))
            .map(|name| (*name).to_owned())
            .or_else(|| {
                database
                    .faces()
                    .next()
                    .and_then(|face| face.families.first().map(|(family, _)| family.clone()))
            });
        if let Some(name) = &family {
            // Every generic family resolves to the one found, so that no text falls through to
            // a family the machine lacks.
            database.set_sans_serif_family(name.clone());
            database.set_serif_family(name.clone());
            database.set_monospace_family(name.clone());
        }
        Fonts {
            database: Arc::new(database),
            family,
        }
    })
}

/// Draws `svg` at `scale` times its own size (its `width` and `height`, rounded up to whole
/// pixels) over white.
pub fn rasterize(svg: &str, scale: f32) -> Result<RgbImage, RenderError> {
    if !(scale.is_finite() && scale > 0.0) {
        return Err(RenderError::Scale(scale));
    }
    let options = Options {
        fontdb: Arc::clone(&fonts().database),
        ..Options::default()
    };
    let tree = Tree::from_str(svg, &options).map_err(|e| RenderError::Svg(e.to_string()))?;
    let (width, height) = (tree.size().width() * scale, tree.size().height() * scale);
    let side = |v: f32| (v >= 0.5 && v <= MAX_SIDE as f32).then(|| v.ceil() as u32);
    let (Some(w), Some(h)) = (side(width), side(height)) else {
        return Err(RenderError::Size { width, height });
    };
    let mut pixmap = Pixmap::new(w, h).ok_or(RenderError::Size { width, height })?;
    pixmap.fill(Color::WHITE);
    resvg::render(
        &tree,
        Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    // Over an opaque background every pixel is opaque, so the premultiplied colour is the
    // colour: drop the alpha byte.
    let pixels = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|rgba| [rgba[0], rgba[1], rgba[2]])
        .collect();
    Ok(RgbImage {
        width: w,
        height: h,
        pixels,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use perfectplay_core::checkers::{Checkers, CheckersPosition};
    use perfectplay_core::Color;

    fn square(fill: &str) -> String {
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10" viewBox="0 0 20 10"><rect x="0" y="0" width="10" height="10" fill="{fill}"/></svg>"#
        )
    }

    #[test]
    fn draws_shapes_at_their_place_over_white() {
        let image = rasterize(&square("#ff0000"), 1.0).unwrap();
        assert_eq!((image.width, image.height), (20, 10));
        assert_eq!(image.pixels.len(), 20 * 10 * 3);
        assert_eq!(image.pixel(5, 5), [255, 0, 0]);
        assert_eq!(image.pixel(15, 5), [255, 255, 255]);
    }

    #[test]
    fn scale_multiplies_the_size() {
        let image = rasterize(&square("#0000ff"), 2.5).unwrap();
        assert_eq!((image.width, image.height), (50, 25));
        assert_eq!(image.pixel(20, 20), [0, 0, 255]);
        assert_eq!(image.pixel(30, 20), [255, 255, 255]);
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        assert!(matches!(rasterize("<svg", 1.0), Err(RenderError::Svg(_))));
        assert!(matches!(
            rasterize("not svg at all", 1.0),
            Err(RenderError::Svg(_))
        ));
        for scale in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            assert!(matches!(
                rasterize(&square("red"), scale),
                Err(RenderError::Scale(_))
            ));
        }
        assert!(matches!(
            rasterize(&square("red"), 1000.0),
            Err(RenderError::Size { .. })
        ));
        assert!(matches!(
            rasterize(&square("red"), 0.01),
            Err(RenderError::Size { .. })
        ));
    }

    #[test]
    fn a_checkers_board_shows_its_pieces() {
        let game = Checkers::default();
        let start = CheckersPosition::start(Color::Black);
        let image = rasterize(&game.svg(&start), 1.0).unwrap();
        assert_eq!((image.width, image.height), (320, 320));
        // Square 1 (row 0, column 1) holds a black man; square 29 (row 7, column 0) a white
        // one; the middle rows are empty dark squares.
        let black = image.pixel(60, 20);
        let white = image.pixel(20, 300);
        let empty_dark = image.pixel(20, 140);
        assert!(black.iter().all(|&c| c < 60), "{black:?}");
        assert!(white.iter().all(|&c| c > 180), "{white:?}");
        assert_eq!(empty_dark, [0x8b, 0x5a, 0x2b]);
    }

    #[test]
    fn text_is_drawn_when_a_font_is_installed() {
        let with_text = r#"<svg xmlns="http://www.w3.org/2000/svg" width="60" height="30"><text x="5" y="25" font-size="24" font-family="sans-serif">88</text></svg>"#;
        let image = rasterize(with_text, 1.0).unwrap();
        let inked = image
            .pixels
            .chunks_exact(3)
            .filter(|p| p.iter().all(|&c| c < 128))
            .count();
        if fonts().found() {
            assert!(
                inked > 20,
                "{inked} dark pixels with {:?}",
                fonts().family()
            );
        } else {
            assert_eq!(inked, 0);
        }
    }
}
