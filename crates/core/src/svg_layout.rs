//! A check for the SVG drawings' tests: no label drawn over a man or piece.

/// The value of attribute `name` in the tag `tag`.
fn attribute(tag: &str, name: &str) -> Option<f64> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let end = start + tag[start..].find('"')?;
    tag[start..end].parse().ok()
}

/// Checks that no `<text>` of `svg` overlaps a circle of class `man` or `king` and that every
/// text lies inside the picture. A text's box is estimated from its font size (glyphs at most
/// 0.62 of the size wide, capitals 0.72 of it tall above the baseline) and its anchor.
/// Returns how many texts and pieces it checked, so that a test can tell a drawing that passed
/// from one with nothing to check (labels dropped, pieces' classes renamed).
pub(crate) fn labels_clear_of_pieces(svg: &str) -> Result<(usize, usize), String> {
    let width = attribute(svg, "width").ok_or("no width")?;
    let height = attribute(svg, "height").ok_or("no height")?;
    let mut pieces = Vec::new();
    for tag in svg.split('<').filter(|t| t.starts_with("circle")) {
        if tag.contains("class=\"man") || tag.contains("class=\"king") {
            let (cx, cy, r) = (
                attribute(tag, "cx").ok_or("cx")?,
                attribute(tag, "cy").ok_or("cy")?,
                attribute(tag, "r").ok_or("r")?,
            );
            pieces.push((cx, cy, r));
        }
    }
    let mut texts = 0;
    for text in svg.split("<text").skip(1) {
        texts += 1;
        let (tag, rest) = text.split_once('>').ok_or("unclosed text")?;
        let content = rest.split('<').next().unwrap_or("");
        let size = attribute(tag, "font-size").ok_or("font-size")?;
        let (x, y) = (
            attribute(tag, "x").ok_or("x")?,
            attribute(tag, "y").ok_or("y")?,
        );
        let w = 0.62 * size * content.chars().count() as f64;
        let left = if tag.contains("text-anchor=\"middle\"") {
            x - w / 2.0
        } else if tag.contains("text-anchor=\"end\"") {
            x - w
        } else {
            x
        };
        let (right, top, bottom) = (left + w, y - 0.72 * size, y);
        if left < 0.0 || top < 0.0 || right > width || bottom > height {
            return Err(format!("{content:?} at ({x}, {y}) leaves the picture"));
        }
        for &(cx, cy, r) in &pieces {
            let nearest_x = cx.clamp(left, right);
            let nearest_y = cy.clamp(top, bottom);
            if (nearest_x - cx).powi(2) + (nearest_y - cy).powi(2) < r * r {
                return Err(format!(
                    "{content:?} at ({x}, {y}) is drawn over the piece at ({cx}, {cy})"
                ));
            }
        }
    }
    Ok((texts, pieces.len()))
}
