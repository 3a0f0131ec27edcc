//! A panic in the core ends the extraction with one sentence instead of a
//! promise that never settles: wasm32 aborts on panic (no unwinding, so no
//! `catch_unwind`), and the trap kills the running future with nothing left
//! to reject its promise. The panic hook runs before the trap, so it tells
//! the content script, which rejects the extraction and stops using this
//! instance (its state may be half-updated).

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

thread_local! {
    static LISTENER: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
}

/// Logs every panic to the console and hands its message to the listener.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        let message = JsValue::from_str(&info.to_string());
        let _ = LISTENER.try_with(|listener| {
            if let Ok(Some(listener)) = listener.try_borrow().as_deref() {
                let _ = listener.call1(&JsValue::NULL, &message);
            }
        });
    }));
}

/// `listener` hears the message of a panic, just before the core traps.
#[wasm_bindgen]
pub fn on_panic(listener: js_sys::Function) {
    LISTENER.with_borrow_mut(|l| *l = Some(listener));
}
