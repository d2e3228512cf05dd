//! Zeroed byte arrays shared between threads as atomics, and back.

use std::sync::atomic::AtomicU8;

/// `len` zeroed atomic bytes, allocated zeroed by the system (no pass over the memory).
pub(crate) fn zeroed_atomic(len: usize) -> Vec<AtomicU8> {
    let bytes = vec![0u8; len];
    let mut bytes = std::mem::ManuallyDrop::new(bytes);
    let (ptr, len, cap) = (bytes.as_mut_ptr(), bytes.len(), bytes.capacity());
    // SAFETY: `AtomicU8` has the same size, alignment and bit validity as `u8`, so the
    // allocation of a `Vec<u8>` is a valid allocation of a `Vec<AtomicU8>` with the same length
    // and capacity; the original vector is not dropped (ManuallyDrop) so ownership moves once.
    unsafe { Vec::from_raw_parts(ptr.cast::<AtomicU8>(), len, cap) }
}

/// The bytes of an atomic array once every thread is done with it.
pub(crate) fn into_bytes(atomics: Vec<AtomicU8>) -> Vec<u8> {
    let mut atomics = std::mem::ManuallyDrop::new(atomics);
    let (ptr, len, cap) = (atomics.as_mut_ptr(), atomics.len(), atomics.capacity());
    // SAFETY: as in `zeroed_atomic`, the layouts are identical; owning the vector means no
    // other reference to the atomics exists, so reading them as plain bytes races with nothing.
    unsafe { Vec::from_raw_parts(ptr.cast::<u8>(), len, cap) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn atomics_start_zeroed_and_come_back_as_their_bytes() {
        let atomics = zeroed_atomic(1000);
        assert!(atomics.iter().all(|a| a.load(Ordering::Relaxed) == 0));
        for (i, a) in atomics.iter().enumerate() {
            a.store(i as u8, Ordering::Relaxed);
        }
        let bytes = into_bytes(atomics);
        assert_eq!(bytes.len(), 1000);
        assert!(bytes.iter().enumerate().all(|(i, &b)| b == i as u8));
        assert!(into_bytes(zeroed_atomic(0)).is_empty());
    }
}
