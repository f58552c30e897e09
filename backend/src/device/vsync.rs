//! `D3DPRESENT_INTERVAL_ONE` as D3D9 defines it: at most one frame shown per refresh of the
//! display. A window's surface presents with `Fifo`, whose acquire normally waits for the
//! vertical blank; where the window system has none (Xvfb, some virtual displays and
//! compositors) `Fifo` does not wait, so `Present` waits out the rest of the refresh itself
//! on a clock of the display's refresh rate (DXVK's frame limiter takes the display's rate
//! the same way when vertical sync is asked for). Where the presentation engine already
//! paces, frames come at the refresh rate and this never waits.

use std::time::{Duration, Instant};

/// The refresh rate of the display mode the device reports (`GetAdapterDisplayMode`,
/// `GetRasterStatus`): 60 Hz, the desktop's rate a windowed program sees.
pub const DISPLAY_REFRESH_HZ: u32 = 60;

/// A frame ahead of its refresh by no more than this is shown without waiting (the
/// presentation engine's own wait absorbs it).
const SLACK: Duration = Duration::from_millis(1);

/// The refresh clock of one window's presents.
#[derive(Debug, Clone)]
pub(crate) struct FramePacer {
    period: Duration,
    /// When the next frame may be shown; `None` before the first.
    next: Option<Instant>,
}

impl FramePacer {
    /// A clock of `refresh_hz` refreshes a second (at least 1).
    pub(crate) fn new(refresh_hz: u32) -> FramePacer {
        FramePacer {
            period: Duration::from_secs(1) / refresh_hz.max(1),
            next: None,
        }
    }

    /// How long a frame presented at `now` waits before it is shown. The refreshes keep
    /// their own grid: a late frame does not delay the next one, and a frame more than a
    /// refresh late starts the grid again from itself.
    pub(crate) fn delay(&mut self, now: Instant) -> Duration {
        let Some(next) = self.next else {
            self.next = Some(now + self.period);
            return Duration::ZERO;
        };
        if now + SLACK < next {
            self.next = Some(next + self.period);
            return next - now;
        }
        self.next = Some(match now > next + self.period {
            true => now + self.period,
            false => next + self.period,
        });
        Duration::ZERO
    }

    /// Waits until a frame presented now may be shown.
    pub(crate) fn wait(&mut self) {
        let delay = self.delay(Instant::now());
        if !delay.is_zero() {
            std::thread::sleep(delay);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn frames_faster_than_the_display_wait_for_their_refresh() {
        let start = Instant::now();
        let mut pacer = FramePacer::new(50); // 20 ms a refresh
        assert_eq!(pacer.delay(start), Duration::ZERO);
        // Presented 2 ms later: shown at the next refresh, 18 ms on.
        assert_eq!(pacer.delay(start + 2 * MS), 18 * MS);
        // The next one, presented at once after that wait, waits a whole refresh.
        assert_eq!(pacer.delay(start + 20 * MS), 20 * MS);
    }

    #[test]
    fn frames_at_the_display_rate_never_wait() {
        let start = Instant::now();
        let mut pacer = FramePacer::new(50);
        for frame in 0..100u32 {
            // A vertical-blank-paced engine: every 20 ms, up to 0.5 ms early or late.
            let jitter = if frame % 2 == 0 { 500 } else { 0 };
            let at = start + frame * 20 * MS - Duration::from_micros(jitter);
            assert_eq!(pacer.delay(at), Duration::ZERO, "frame {frame}");
        }
    }

    #[test]
    fn a_late_frame_does_not_delay_the_next() {
        let start = Instant::now();
        let mut pacer = FramePacer::new(50);
        pacer.delay(start);
        // 30 ms: late for the 20 ms refresh; the next refresh is still at 40 ms.
        assert_eq!(pacer.delay(start + 30 * MS), Duration::ZERO);
        assert_eq!(pacer.delay(start + 32 * MS), 8 * MS);
        // Far behind (100 ms): the grid starts again from that frame.
        assert_eq!(pacer.delay(start + 100 * MS), Duration::ZERO);
        assert_eq!(pacer.delay(start + 101 * MS), 19 * MS);
    }
}
