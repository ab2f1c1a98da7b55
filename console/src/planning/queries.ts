// The GraphQL the planning views send (typed by gql.tada against schema/schema.graphql): headroom
// per flavor, a simulation with its optional comparison, a drain plan and its reservation.
import { graphql, type ResultOf } from '../graphql';

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

export const SIMULATE = graphql(`
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
      candidateStage {
        hostsTotal
        hostsWithCandidates
        summary
        constraints { kind code group label resourceClass amount hostsAlone hostsAfter }
        blocking { code group label }
        closestMisses { host { uuid name } misses { kind code label message } }
      }
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
`);

/** simulate's answer as the simulation page draws it. */
export type SimulationAnswer = ResultOf<typeof SIMULATE>['simulate'];
/** One run of a simulation. */
export type SimulationRun = SimulationAnswer['run'];

export const DRAIN_PLAN = graphql(`
  query DrainPlan($input: DrainPlanInput!) { drainPlan(input: $input) { ...DrainPlanFields } }
  fragment DrainPlanFields on DrainPlan {
    hosts { uuid name }
    movable unmovable reserved durationMs
    moves {
      consumerUuid projectId
      from { uuid name }
      to { uuid name }
      allocations { provider { uuid name } resources { resourceClass amount } }
      reason
      candidateStage {
        hostsTotal
        hostsWithCandidates
        summary
        constraints { kind code group label resourceClass amount hostsAlone hostsAfter }
        blocking { code group label }
        closestMisses { host { uuid name } misses { kind code label message } }
      }
    }
  }
`);

export const RESERVE_DRAIN_PLAN = graphql(`
  mutation ReserveDrainPlan($input: DrainPlanInput!) {
    reserveDrainPlan(input: $input) { ...DrainPlanFields }
  }
  fragment DrainPlanFields on DrainPlan {
    hosts { uuid name }
    movable unmovable reserved durationMs
    moves {
      consumerUuid projectId
      from { uuid name }
      to { uuid name }
      allocations { provider { uuid name } resources { resourceClass amount } }
      reason
      candidateStage {
        hostsTotal
        hostsWithCandidates
        summary
        constraints { kind code group label resourceClass amount hostsAlone hostsAfter }
        blocking { code group label }
        closestMisses { host { uuid name } misses { kind code label message } }
      }
    }
  }
`);

/** A drain plan as the host page draws it. */
export type DrainPlanAnswer = ResultOf<typeof DRAIN_PLAN>['drainPlan'];

/** The caller's role, as berth authorises it (which planning actions the pages offer). */
export const VIEWER = graphql(`
  query Viewer { viewer { role } }
`);
