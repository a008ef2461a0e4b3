import SleeveRecorder

/// A small recorded history for `sleeve demo --history`: baseline runs of the checkout test on
/// `main` across four commits, then one candidate run on a branch with a real regression, so
/// `diff`, `flaky` and `check --baseline` have something to find right away:
///
/// - `charge-card` is slower and declines more cards on the branch (a regression);
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

  /// The runs, oldest first: two per main commit, then the candidate.
  static func runs() -> [CheckoutDemo.Run] {
    let commits = ["3f2a91c0d4e5", "8b7c6d5e4f30", "c4d5e6f70812", "e1f2a3b4c5d6"]
    var runs: [CheckoutDemo.Run] = []
    for (index, commit) in commits.enumerated() {
      for attempt in 1...2 {
        var run = run(commit: commit, branch: mainBranch, pipeline: 100 + index, attempt: attempt)
        run.seed = UInt64(10 * index + attempt)
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
