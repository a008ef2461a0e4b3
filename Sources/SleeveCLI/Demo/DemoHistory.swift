import SleeveRecorder

/// A small recorded history for `sleeve demo --history`: runs of the checkout test on `main`
/// across ten commits, then one candidate run on a branch with a real regression, so `diff`,
/// `flaky`, `changes` and `check --baseline` have something to find right away:
///
/// - `charge-card` got 50% slower on `main` at a known commit, ``slowdownCommit`` (the seventh:
///   six commits of one nightly run each before it, four of two runs each from it on), so
///   `sleeve changes --branch main` finds that commit, and a baseline of main's last 20 runs
///   mixes the two levels;
/// - `charge-card` is slower again and declines more cards on the branch (a regression);
/// - `update-total` fails on the branch in a way `main` never did (a new failure type);
/// - `fetch-shipping-quote` times out in one of the two runs of two `main` commits, and
///   not in the other (a flaky handler);
/// - the branch's run has `sleeve lint`'s pitfalls, one of each (the analytics owner
///   released while the pay button keeps firing, then ``CheckoutVisit``'s visit); the runs on
///   `main` have none, so `sleeve lint --branch` finds them all and `main` lints clean.
///
/// CI context is filled in (commit, branch, pipeline, job, repository, a build URL) and each
/// run records its test, as the Swift Testing trait would.
enum DemoHistory {
  /// The branch of the baseline runs.
  static let mainBranch = "main"
  /// The branch of the candidate run.
  static let candidateBranch = "feature/faster-checkout"

  /// The main commit that made `charge-card` slower.
  static let slowdownCommit = "3f2a91c0d4e5"

  /// The runs, oldest first: one per older main commit, two per main commit from the slowdown
  /// on, then the candidate.
  static func runs() -> [CheckoutDemo.Run] {
    let older = [
      "0a1b2c3d4e5f", "1b2c3d4e5f60", "2c3d4e5f6071", "4d5e6f708192", "5e6f708192a3",
      "6f708192a3b4",
    ]
    var runs: [CheckoutDemo.Run] = []
    for (index, commit) in older.enumerated() {
      var run = run(commit: commit, branch: mainBranch, pipeline: 90 + index, attempt: 1)
      run.seed = UInt64(50 + index)
      run.chargeScale = 2
      runs.append(run)
    }
    let commits = [slowdownCommit, "8b7c6d5e4f30", "c4d5e6f70812", "e1f2a3b4c5d6"]
    for (index, commit) in commits.enumerated() {
      for attempt in 1...2 {
        var run = run(commit: commit, branch: mainBranch, pipeline: 100 + index, attempt: attempt)
        run.seed = UInt64(10 * index + attempt)
        run.chargeScale = 3
        // Flaky: the quote times out in the first run of the second and fourth commits only.
        run.quoteTimeoutsPerThousand = attempt == 1 && index % 2 == 1 ? 60 : 0
        runs.append(run)
      }
    }
    var candidate = run(
      commit: "f00dfeed1234", branch: candidateBranch, pipeline: 200, attempt: 1,
      pullRequest: "42")
    candidate.seed = 99
    candidate.chargeScale = 5
    candidate.declinesPerThousand = 90
    candidate.missingTotal = true
    candidate.pitfalls = true
    runs.append(candidate)
    return runs
  }

  private static func run(
    commit: String, branch: String, pipeline: Int, attempt: Int, pullRequest: String? = nil
  ) -> CheckoutDemo.Run {
    var run = CheckoutDemo.Run()
    run.name = "CheckoutTests"
    run.rollsBackFlag = false
    run.pitfalls = false  // the candidate's alone
    run.newCheckoutRejectsPerHundred = 0  // the flag's own rollout is the plain demo's story
    run.context = RunContext(
      ciSystem: .githubActions, commit: commit, branch: branch, pullRequest: pullRequest,
      pipeline: String(pipeline), attempt: String(attempt), job: "test",
      runner: "demo-runner", repository: "example/checkout",
      buildURL: "https://github.com/example/checkout/actions/runs/\(pipeline)")
    run.test = TestIdentity(
      id: "CheckoutTests/checkoutSubmits()", name: "checkout submits", suite: "CheckoutTests",
      tags: ["checkout"])
    return run
  }
}
