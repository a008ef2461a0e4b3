/// The bounds the tests of waits, deadlines and retries hold their measurements to.
///
/// A wall-clock upper bound in a suite that runs 900 tests on two shared cores measures the
/// machine as much as the code: a CI run once took 213 s where this machine takes 65, and a
/// test's `await` can resume a minute late. So the bounds are in three tiers, far apart:
/// - what the test asks for (a 400 ms wait timeout, a 700 ms deadline, a 25 s budget);
/// - `hang`: a wait that took longer did not end by the bound under test (scheduling noise
///   stays well below it);
/// - the suites' time limit, 10 minutes: a wait with no bound at all.
///
/// And what a wrong bound would wait for (another timeout confused with the one under test, a
/// `Retry-After` slept toward) is set an hour long, so that mistake reaches the time limit
/// instead of passing inside the slack.
public enum WaitBounds {
  /// The most any bounded wait under test may take, noise included: 4 minutes.
  public static let hang = Duration.seconds(240)
  /// What a wait the test does not mean to reach is set to: an hour.
  public static let unreached = Duration.seconds(3600)
}
