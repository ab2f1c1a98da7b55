// The GraphQL the planning views send (typed by gql.tada against schema/schema.graphql): headroom
// per flavor, a simulation with its optional comparison, a drain plan and its reservation.
import { graphql, type ResultOf } from '../graphql';

/** The candidate stage as the explain page's component draws it (unmasked). */
const CANDIDATE_STAGE_FIELDS = graphql(`
  fragment CandidateStageFields on CandidateStage @_unmask {
    hostsTotal
    hostsWithCandidates
    summary
    constraints { kind code group label resourceClass amount hostsAlone hostsAfter }
    blocking { code group label }
    closestMisses { host { uuid name } misses { kind code label message } }
  }
`);

/** Profiles to choose from and the flavors headroom counts by default. */
export const PLANNING_CHOICES = graphql(`
  query PlanningChoices {
    schedulerProfiles { name filters weighers hostSubsetSize config }
    planningFlavors { name resources { resourceClass amount } required }
  }
`);

export const HEADROOM = graphql(`
  query Headroom($input: HeadroomInput!) {
    headroom(input: $input) {
      profile
      packing
      hosts
      durationMs
      flavors {
        name count independentCount hosts hostsWithRoom runsOutFirst
        limits { by hosts }
        groups { key name count independentCount hosts hostsWithRoom runsOutFirst }
      }
    }
  }
`);

/** headroom's answer as the overview draws it. */
export type HeadroomAnswer = ResultOf<typeof HEADROOM>['headroom'];

export const SIMULATE = graphql(
  `
  query Simulate($input: SimulateInput!) {
    simulate(input: $input) {
      run { ...SimulationRunFields }
      compare { ...SimulationRunFields }
      diff {
        same differentHost onlyInRun onlyInCompare
        entries { index consumerUuid runHost { uuid name } compareHost { uuid name } }
      }
    }
  }
  fragment SimulationRunFields on SimulationRun {
    label requests consumers placed failed durationMs
    placements {
      index request consumerUuid
      host { uuid name }
      allocations { provider { uuid name } resources { resourceClass amount } }
      reason
      funnel { filter before after }
      weight
      candidateStage { ...CandidateStageFields }
    }
    end {
      classes { resourceClass capacity used free fraction }
      hosts { host { uuid name } placed classes { resourceClass capacity used free fraction } }
      aggregates { uuid name classes { resourceClass capacity used free fraction } }
      largestFlavor
      largestFlavorFits
      stranded { resourceClass capacity used free fraction }
    }
  }
`,
  [CANDIDATE_STAGE_FIELDS],
);

/** simulate's answer as the simulation page draws it. */
export type SimulationAnswer = ResultOf<typeof SIMULATE>['simulate'];
/** One run of a simulation. */
export type SimulationRun = SimulationAnswer['run'];

/** What a drain plan shows (unmasked: the components read its fields directly). */
const DRAIN_PLAN_FIELDS = graphql(
  `
  fragment DrainPlanFields on DrainPlan @_unmask {
    hosts { uuid name }
    movable unmovable reserved durationMs
    moves {
      consumerUuid projectId
      from { uuid name }
      to { uuid name }
      allocations { provider { uuid name } resources { resourceClass amount } }
      reason
      candidateStage { ...CandidateStageFields }
    }
  }
`,
  [CANDIDATE_STAGE_FIELDS],
);

export const DRAIN_PLAN = graphql(
  `
  query DrainPlan($input: DrainPlanInput!) { drainPlan(input: $input) { ...DrainPlanFields } }
`,
  [DRAIN_PLAN_FIELDS],
);

export const RESERVE_DRAIN_PLAN = graphql(
  `
  mutation ReserveDrainPlan($input: DrainPlanInput!) {
    reserveDrainPlan(input: $input) { ...DrainPlanFields }
  }
`,
  [DRAIN_PLAN_FIELDS],
);

/** A drain plan as the host page draws it. */
export type DrainPlanAnswer = ResultOf<typeof DRAIN_PLAN>['drainPlan'];

/** The caller's role, as berth authorises it (which planning actions the pages offer). */
export const VIEWER = graphql(`
  query Viewer { viewer { role } }
`);
