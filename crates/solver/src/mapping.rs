//! Read-only maps of table files that outlive the file being cut short under them.
//!
//! Reading a page of a memory map whose file has since been truncated raises `SIGBUS`, which
//! kills the process (a Python interpreter with it). perfectplay never changes a table in place
//! (a rebuild writes a new file and renames it over the old one; an open map keeps the old
//! file), so only another program can do this, but a training run must not die of it. Every
//! table map is registered here, and a process-wide `SIGBUS` handler, on a fault inside a
//! registered map, marks that map faulted and replaces it with zero pages: the faulting read
//! then completes (reading zeros) and the reader, which checks [`GuardedMap::faulted`] after
//! its reads, reports an error instead of a value. A fault anywhere else goes to the handler
//! that was installed before ours (Python's `faulthandler`, Rust's stack-overflow handler, or
//! the default action), so other crashes stay crashes.
//!
//! The JVM treats faults in its mapped byte buffers the same way. On platforms other than
//! Linux and macOS the maps are plain maps.

use std::fs::File;
use std::io;
use std::sync::atomic::Ordering;

use memmap2::Mmap;

/// A read-only map of a whole file, registered with the fault handler while it lives.
pub(crate) struct GuardedMap {
    map: Mmap,
    slot: Option<usize>,
}

impl GuardedMap {
    /// Maps `file` read-only and registers the map. A file of zero bytes cannot be mapped:
    /// callers read those without a map.
    pub(crate) fn new(file: &File) -> io::Result<GuardedMap> {
        // SAFETY: the map is read-only and read only as `u8`, so any content is valid. The file
        // changing under it changes what is read, which readers detect by checking the file
        // after their reads (`Table::check_intact`); the file being truncated under it faults,
        // which the handler registered below turns into zero pages and a faulted flag. Tested
        // by `tests::a_truncated_map_reads_zeros_and_says_so` and the table tests.
        let map = unsafe { Mmap::map(file)? };
        let slot = registry::register(map.as_ptr() as usize, map.len())?;
        Ok(GuardedMap { map, slot })
    }

    /// The mapped bytes (zeros from the first fault on).
    #[inline]
    pub(crate) fn as_slice(&self) -> &[u8] {
        &self.map
    }

    /// Whether a read of any map has faulted, ever: one load of a value that stays in every
    /// core's cache, so that readers look at their own map's mark only after a fault.
    #[inline]
    pub(crate) fn any_faulted() -> bool {
        std::sync::atomic::compiler_fence(Ordering::SeqCst);
        registry::any_faulted()
    }

    /// Whether a read of this map has faulted: the file was truncated after it was mapped and
    /// every read since may have returned zeros.
    #[inline]
    pub(crate) fn faulted(&self) -> bool {
        // A fault is handled on the thread that read, between its read and this load: the
        // fence keeps the compiler from moving the load before the reads it follows.
        std::sync::atomic::compiler_fence(Ordering::SeqCst);
        self.slot.is_some_and(registry::faulted)
    }
}

impl Drop for GuardedMap {
    fn drop(&mut self) {
        // Off the registry before the map goes: no one reads a map being dropped, so no
        // fault can be on its way to the slot.
        if let Some(slot) = self.slot {
            registry::unregister(slot);
        }
    }
}

#[cfg(any(target_os = "linux", target_os = "macos"))]
mod registry {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize};
    use std::sync::Mutex;

    /// One registered map: where it starts, its length, whether it faulted.
    struct Slot {
        start: AtomicUsize,
        len: AtomicUsize,
        faulted: AtomicBool,
    }

    /// Maps registered at once, at most: every table of the largest sets (checkers to eight
    /// pieces has under 10,000) with room to spare. A fixed array, so that the signal handler
    /// reads it without locks or allocation.
    const CAPACITY: usize = 1 << 16;

    #[allow(clippy::declare_interior_mutable_const)]
    const FREE: Slot = Slot {
        start: AtomicUsize::new(0),
        len: AtomicUsize::new(0),
        faulted: AtomicBool::new(false),
    };
    static SLOTS: [Slot; CAPACITY] = [FREE; CAPACITY];
    /// Faults handled, ever.
    static FAULTS: AtomicUsize = AtomicUsize::new(0);
    /// One past the highest slot ever used: the handler scans no further.
    static USED: AtomicUsize = AtomicUsize::new(0);
    /// A handler taking `SA_SIGINFO` arguments.
    type InfoHandler = extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void);

    /// Our handler, as `sigaction` stores it.
    fn ours() -> libc::sighandler_t {
        on_sigbus as InfoHandler as libc::sighandler_t
    }

    /// Serialises registration and the handler's installation (never taken by the handler).
    static LOCK: Mutex<()> = Mutex::new(());
    /// The action that was in place before ours, called for faults outside our maps.
    static mut PREVIOUS: std::mem::MaybeUninit<libc::sigaction> = std::mem::MaybeUninit::zeroed();
    /// Whether a signal was handed to `PREVIOUS` since ours was last installed: if ours is
    /// called again for one, the action handed to put ours back without ending the process.
    static HANDED_BACK: AtomicBool = AtomicBool::new(false);

    pub(super) fn register(start: usize, len: usize) -> io::Result<Option<usize>> {
        let _guard = LOCK
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        install_handler()?;
        let Some(slot) = SLOTS
            .iter()
            .position(|s| s.start.load(Ordering::Relaxed) == 0)
        else {
            return Err(io::Error::other(format!(
                "more than {CAPACITY} table files mapped at once"
            )));
        };
        let s = &SLOTS[slot];
        s.faulted.store(false, Ordering::Relaxed);
        s.len.store(len, Ordering::Relaxed);
        // Published last: the handler takes a slot whose start it sees as complete.
        s.start.store(start, Ordering::Release);
        USED.fetch_max(slot + 1, Ordering::Release);
        Ok(Some(slot))
    }

    pub(super) fn unregister(slot: usize) {
        let _guard = LOCK
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        SLOTS[slot].start.store(0, Ordering::Release);
    }

    #[inline]
    pub(super) fn faulted(slot: usize) -> bool {
        SLOTS[slot].faulted.load(Ordering::Acquire)
    }

    #[inline]
    pub(super) fn any_faulted() -> bool {
        FAULTS.load(Ordering::Acquire) != 0
    }

    /// Installs the handler, unless it is the one in place: checked at every registration, so
    /// that a handler installed over ours later (Python's `faulthandler.enable()`) is chained
    /// behind ours again before the next map is read.
    fn install_handler() -> io::Result<()> {
        // SAFETY: `sigaction` with a null new action only reads the current one into `current`.
        let current = unsafe {
            let mut current: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGBUS, std::ptr::null(), &mut current) != 0 {
                return Err(io::Error::last_os_error());
            }
            current
        };
        if current.sa_sigaction == ours() {
            return Ok(());
        }
        // SAFETY: `PREVIOUS` is written only here, under `LOCK`, while our handler is not
        // installed (it is installed just below, after the write), so the handler, its only
        // other reader, never reads it half-written. The new action is a valid handler taking
        // `SA_SIGINFO` arguments.
        unsafe {
            (*std::ptr::addr_of_mut!(PREVIOUS)).write(current);
            HANDED_BACK.store(false, Ordering::SeqCst);
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = ours();
            action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK | libc::SA_NODEFER;
            libc::sigemptyset(&mut action.sa_mask);
            if libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut()) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }

    /// The registered map holding `addr`, if any. Lock-free: called from the handler.
    fn slot_of(addr: usize) -> Option<&'static Slot> {
        SLOTS[..USED.load(Ordering::Acquire)].iter().find(|s| {
            let start = s.start.load(Ordering::Acquire);
            start != 0 && addr >= start && addr - start < s.len.load(Ordering::Relaxed)
        })
    }

    extern "C" fn on_sigbus(sig: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
        // SAFETY: the kernel passes a valid `siginfo_t` to an `SA_SIGINFO` handler. Only a
        // fault raised by the kernel (positive code) carries an address.
        let fault = unsafe { ((*info).si_code > 0).then(|| (*info).si_addr() as usize) };
        if let Some(slot) = fault.and_then(slot_of) {
            slot.faulted.store(true, Ordering::SeqCst);
            FAULTS.fetch_add(1, Ordering::SeqCst);
            let start = slot.start.load(Ordering::Acquire);
            let len = slot.len.load(Ordering::Relaxed);
            // SAFETY: `start..start + len` is a live map of ours (registered, and maps are
            // unregistered before they are unmapped, which no reader's fault can race: a map
            // is dropped only when nothing reads it). Replacing it with anonymous zero pages
            // at the same address keeps every pointer into it valid. POSIX does not list `mmap`
            // among the async-signal-safe functions, but on Linux (glibc and musl) and macOS it
            // is a plain system call that takes no user-space lock, so it is safe here, as
            // other runtimes (the JVM's) rely on too.
            let replaced = unsafe {
                libc::mmap(
                    start as *mut libc::c_void,
                    len,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if replaced != libc::MAP_FAILED {
                return;
            }
        }
        // SAFETY: `info` is the kernel's; `PREVIOUS` was written before this handler was
        // installed (see `install_handler`).
        unsafe { hand_back(sig, info) }
    }

    /// Gives a signal that is not ours to the action installed before ours, as if ours had
    /// never been there: that action is put back and the signal happens again, a fault by the
    /// faulting instruction running again once we return, a sent signal by sending it again.
    /// (Calling the previous handler from ours instead loops for ever when it returns
    /// without curing the fault, as Python's `faulthandler` does after putting back its own
    /// predecessor, which is ours.) The next table mapped puts ours back in front.
    ///
    /// A handler installed over ours after a table was mapped (`faulthandler.enable()` then)
    /// has ours as its predecessor, and ours, put in front of it again by the next table
    /// mapped, has it as `PREVIOUS`: handed a signal, it reports it and puts ours back, and
    /// the signal comes to ours again. The second time round the default action is put back
    /// instead, so the process ends by the signal, as it would without ours, rather than
    /// bouncing between the two handlers until its stack runs out.
    ///
    /// # Safety
    /// Only from the handler, with its `info`.
    unsafe fn hand_back(sig: libc::c_int, info: *mut libc::siginfo_t) {
        // SAFETY: `PREVIOUS` was written before our handler was installed, never while it
        // runs; `HANDED_BACK` is an atomic; `sigemptyset`, `sigaction` and `raise` are
        // async-signal-safe.
        unsafe {
            if HANDED_BACK.swap(true, Ordering::SeqCst) {
                let mut default: libc::sigaction = std::mem::zeroed();
                default.sa_sigaction = libc::SIG_DFL;
                libc::sigemptyset(&mut default.sa_mask);
                libc::sigaction(sig, &default, std::ptr::null_mut());
            } else {
                let previous = (*std::ptr::addr_of!(PREVIOUS)).assume_init_ref();
                libc::sigaction(sig, previous, std::ptr::null_mut());
            }
            if (*info).si_code <= 0 {
                libc::raise(sig);
            }
        }
    }
}

#[cfg(not(any(target_os = "linux", target_os = "macos")))]
mod registry {
    use super::*;

    pub(super) fn register(_start: usize, _len: usize) -> io::Result<Option<usize>> {
        Ok(None)
    }

    pub(super) fn unregister(_slot: usize) {}

    pub(super) fn faulted(_slot: usize) -> bool {
        false
    }

    pub(super) fn any_faulted() -> bool {
        false
    }
}

#[cfg(all(test, any(target_os = "linux", target_os = "macos")))]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_truncated_map_reads_zeros_and_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t");
        let bytes: Vec<u8> = (0..3 * 4096).map(|i| (i % 251) as u8 + 1).collect();
        File::create(&path).unwrap().write_all(&bytes).unwrap();
        let file = File::open(&path).unwrap();
        let map = GuardedMap::new(&file).unwrap();
        assert_eq!(map.as_slice(), &bytes[..]);
        assert!(!map.faulted());

        File::create(&path).unwrap(); // truncates to nothing
        let last = std::hint::black_box(map.as_slice())[bytes.len() - 1];
        assert!(map.faulted());
        assert!(GuardedMap::any_faulted());
        assert_eq!(last, 0);
        assert!(map.as_slice().iter().all(|&b| b == 0));

        // Another map of a new file is not affected.
        File::create(&path).unwrap().write_all(&bytes).unwrap();
        let again = GuardedMap::new(&File::open(&path).unwrap()).unwrap();
        assert_eq!(again.as_slice(), &bytes[..]);
        assert!(!again.faulted());
        drop(map);
        assert_eq!(again.as_slice(), &bytes[..]);
    }

    #[test]
    fn maps_on_many_threads_fault_independently() {
        let dir = tempfile::tempdir().unwrap();
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let path = dir.path().join(format!("t{t}"));
                std::thread::spawn(move || {
                    File::create(&path)
                        .unwrap()
                        .write_all(&[7u8; 8192])
                        .unwrap();
                    let map = GuardedMap::new(&File::open(&path).unwrap()).unwrap();
                    if t % 2 == 0 {
                        File::create(&path).unwrap();
                    }
                    let sum: u64 = map.as_slice().iter().map(|&b| u64::from(b)).sum();
                    (t, sum, map.faulted())
                })
            })
            .collect();
        for h in handles {
            let (t, sum, faulted) = h.join().unwrap();
            assert_eq!(faulted, t % 2 == 0, "thread {t}");
            assert_eq!(sum, if faulted { 0 } else { 7 * 8192 }, "thread {t}");
        }
    }
}
