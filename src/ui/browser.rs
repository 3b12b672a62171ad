//! Small wrappers around browser APIs: downloads, the URL fragment, local
//! storage. Failures are returned, never panicked on.

use wasm_bindgen::JsCast;

/// Offer `text` as a file download.
pub fn download(name: &str, text: &str, mime: &str) -> Result<(), String> {
    let err = |e: wasm_bindgen::JsValue| format!("{e:?}");
    let window = web_sys::window().ok_or("no window")?;
    let doc = window.document().ok_or("no document")?;
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &opts).map_err(err)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(err)?;
    let a: web_sys::HtmlAnchorElement = doc.create_element("a").map_err(err)?.unchecked_into();
    a.set_href(&url);
    a.set_download(name);
    doc.body().ok_or("no body")?.append_child(&a).map_err(err)?;
    a.click();
    a.remove();
    // Give the download a moment to start before the URL is revoked.
    let cb = wasm_bindgen::closure::Closure::once_into_js(move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    });
    let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(cb.unchecked_ref(), 2_000);
    Ok(())
}

pub fn local_get(key: &str) -> Option<String> {
    web_sys::window()?
        .local_storage()
        .ok()??
        .get_item(key)
        .ok()?
}

pub fn local_set(key: &str, value: &str) -> Result<(), String> {
    let storage = web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .ok_or("local storage is not available")?;
    storage
        .set_item(key, value)
        .map_err(|_| "local storage is full or blocked".to_string())
}

pub fn local_remove(key: &str) {
    if let Some(s) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.remove_item(key);
    }
}

/// The URL fragment without the leading '#'.
pub fn hash() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .map(|h| h.trim_start_matches('#').to_string())
        .unwrap_or_default()
}

/// Replace the fragment without adding a history entry (an empty one
/// removes it).
pub fn replace_hash(fragment: &str) {
    let Some(w) = web_sys::window() else { return };
    let Ok(h) = w.history() else { return };
    let loc = w.location();
    let base = format!(
        "{}{}",
        loc.pathname().unwrap_or_default(),
        loc.search().unwrap_or_default()
    );
    let url = if fragment.is_empty() {
        base
    } else {
        format!("{base}#{fragment}")
    };
    let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
}

/// Render an SVG document to a PNG (twice its size, for slides) and offer it
/// as a download. The drawing happens when the image has loaded.
pub fn download_png(name: &str, svg: &str) -> Result<(), String> {
    let err = |e: wasm_bindgen::JsValue| format!("{e:?}");
    let window = web_sys::window().ok_or("no window")?;
    let doc = window.document().ok_or("no document")?;
    let img: web_sys::HtmlImageElement = doc.create_element("img").map_err(err)?.unchecked_into();
    // A data address, not a blob's: an SVG with a `foreignObject` (an HTML
    // view) read from a blob taints the canvas, and the PNG could not be
    // taken from it.
    let url = format!(
        "data:image/svg+xml;charset=utf-8,{}",
        String::from(js_sys::encode_uri_component(svg))
    );
    let name = name.to_string();
    let img2 = img.clone();
    let onload = wasm_bindgen::closure::Closure::once_into_js(move || {
        let _ = (|| -> Option<()> {
            let doc = web_sys::window()?.document()?;
            let canvas: web_sys::HtmlCanvasElement =
                doc.create_element("canvas").ok()?.unchecked_into();
            let (w, h) = (
                img2.natural_width().max(1) * 2,
                img2.natural_height().max(1) * 2,
            );
            canvas.set_width(w);
            canvas.set_height(h);
            let ctx: web_sys::CanvasRenderingContext2d =
                canvas.get_context("2d").ok()??.unchecked_into();
            ctx.draw_image_with_html_image_element_and_dw_and_dh(
                &img2, 0.0, 0.0, w as f64, h as f64,
            )
            .ok()?;
            let data = canvas.to_data_url_with_type("image/png").ok()?;
            let a: web_sys::HtmlAnchorElement = doc.create_element("a").ok()?.unchecked_into();
            a.set_href(&data);
            a.set_download(&name);
            doc.body()?.append_child(&a).ok()?;
            a.click();
            a.remove();
            Some(())
        })();
    });
    img.set_onload(Some(onload.unchecked_ref()));
    img.set_src(&url);
    Ok(())
}

/// Scroll the page and its scrolling panes back to their tops.
pub fn scroll_to_top() {
    let Some(w) = web_sys::window() else { return };
    w.scroll_to_with_x_and_y(0.0, 0.0);
    let Some(list) = w
        .document()
        .and_then(|d| d.query_selector_all("main, .stage, .player").ok())
    else {
        return;
    };
    for i in 0..list.length() {
        if let Some(el) = list
            .item(i)
            .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
        {
            el.set_scroll_top(0);
        }
    }
}

/// Whether a media query matches (read once per query by the callers below).
fn media_matches(query: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.match_media(query).ok().flatten())
        .is_some_and(|m| m.matches())
}

/// Whether the user asked the system for less motion
/// (`prefers-reduced-motion: reduce`); read once per page.
pub fn reduced_motion() -> bool {
    thread_local! {
        static STILL: bool = media_matches("(prefers-reduced-motion: reduce)");
    }
    STILL.with(|s| *s)
}

/// Whether the page is phone-sized (at most 600 px wide) when it opens: the
/// chamber then shows its seats larger and lists the ledgers under them.
pub fn narrow() -> bool {
    thread_local! {
        static NARROW: bool = media_matches("(max-width: 600px)");
    }
    NARROW.with(|s| *s)
}

/// Put the focus on the first element matching `selector`, if there is one.
pub fn focus(selector: &str) {
    let el = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(selector).ok().flatten())
        .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(el) = el {
        let _ = el.focus();
    }
}

/// Scrolls `el` into sight if it is not (`scrollIntoView({block: "nearest"})`),
/// leaving alone what already shows it whole — once the page has it
/// (`soon`): an element a view has just built is not in the page yet.
pub fn into_sight(el: web_sys::Element) {
    soon(move || {
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"block".into(), &"nearest".into());
        if let Ok(f) = js_sys::Reflect::get(&el, &"scrollIntoView".into()) {
            if let Some(f) = f.dyn_ref::<js_sys::Function>() {
                let _ = f.call1(&el, &options);
            }
        }
    });
}

/// Whether the focus has fallen to the page itself (the element that had it
/// was removed, e.g. the lesson list's Start button).
pub fn focus_lost() -> bool {
    let Some(d) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    match (d.active_element(), d.body()) {
        (None, _) => true,
        (Some(a), Some(b)) => a.is_same_node(Some(&b)),
        _ => false,
    }
}

/// Run `f` as a new task, at once after the browser has had its chance to
/// paint: a message to ourselves, which (unlike a nested `setTimeout`) is
/// not held back 4 ms. Long work is cut into such tasks so the page stays live.
pub fn soon(f: impl FnOnce() + 'static) {
    use wasm_bindgen::JsCast;
    let Ok(channel) = web_sys::MessageChannel::new() else {
        // No message channels (very old browser): a timer will do.
        leptos::prelude::set_timeout(f, std::time::Duration::from_millis(0));
        return;
    };
    let port = channel.port1();
    let run = wasm_bindgen::closure::Closure::once_into_js(move |_: web_sys::MessageEvent| f());
    port.set_onmessage(Some(run.unchecked_ref()));
    let _ = channel.port2().post_message(&wasm_bindgen::JsValue::NULL);
}
