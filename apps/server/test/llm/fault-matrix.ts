/**
 * The fault modes of `npm run bench:writing` and `npm run bench:reduction`: every flow through every
 * content fault, once and always, tallied the same way — each run that delivered something bad or
 * charged for nothing is printed, then a line per flow, then
 * `ai-faults: flows=… delivered_bad=… charged_for_nothing=…`. The runs themselves are the tests'
 * (test/writing/fault-flows.ts, test/reduction/fault-flows.ts).
 */
export interface FaultRunOutcome {
  /** What was wrong with what the user received (or was left with). */
  bad: string[];
  chargedForNothing: boolean;
}

export async function runFaultMatrix<R extends FaultRunOutcome>(options: {
  flows: readonly string[];
  faults: readonly string[];
  run: (flow: string, fault: string, persistent: boolean) => Promise<R>;
  /** Whether a run counts as delivered_bad (default: it has any `bad`). */
  deliveredBad?: (run: R) => boolean;
  /** The figures of one flow's runs after `faults <flow>: runs=N ` (e.g. what was delivered). */
  summary: (runs: R[]) => string;
}): Promise<{ flows: number; deliveredBad: number; chargedForNothing: number }> {
  const isBad = options.deliveredBad ?? ((run: R) => run.bad.length > 0);
  const byFlow = new Map<string, R[]>();
  let deliveredBad = 0;
  let chargedForNothing = 0;
  for (const flow of options.flows) {
    const runs: R[] = [];
    byFlow.set(flow, runs);
    for (const fault of options.faults) {
      for (const persistent of [false, true]) {
        const run = await options.run(flow, fault, persistent);
        runs.push(run);
        const label = `${flow} ${fault}${persistent ? ' (always)' : ' (once)'}`;
        if (isBad(run)) {
          deliveredBad += 1;
          console.log(`  delivered bad: ${label}: ${run.bad.join(', ')}`);
        }
        if (run.chargedForNothing) {
          chargedForNothing += 1;
          console.log(`  charged for nothing: ${label}`);
        }
      }
    }
  }
  for (const [flow, runs] of byFlow)
    console.log(
      `faults ${flow}: runs=${runs.length} ${options.summary(runs)} delivered_bad=${runs.filter(isBad).length} charged_for_nothing=${runs.filter((r) => r.chargedForNothing).length}`,
    );
  const flows = [...byFlow.values()].reduce((n, runs) => n + runs.length, 0);
  console.log(
    `ai-faults: flows=${flows} delivered_bad=${deliveredBad} charged_for_nothing=${chargedForNothing}`,
  );
  return { flows, deliveredBad, chargedForNothing };
}
