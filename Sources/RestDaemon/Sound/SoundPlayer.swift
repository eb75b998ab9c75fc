/// What plays restd's sounds through the session's sound server. `SoundScheduler` decides when;
/// the player decides how (the theme's sounds, `[sound] command`, Do Not Disturb).
protocol SoundPlayer: AnyObject {
    /// Sets the sound machinery up a little ahead of a cue, so that the cue is on time.
    func prepare()
    /// Plays one cue tick now.
    func playCue()
    /// Rings the alarm until `stopAlarm()`; `once`, a single ring that needs no stopping.
    func startAlarm(once: Bool)
    /// Stops the alarm at once.
    func stopAlarm()
}

extension SoundService: SoundPlayer {}
