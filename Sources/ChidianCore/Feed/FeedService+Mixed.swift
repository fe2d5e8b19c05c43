import Foundation

extension FeedService {
    /// A first page mixed by the evidence (issue #46): `FeedPlanner.mixed` gives each place a category; the walk
    /// (interests, highest first, as before) fills the places of its first category, and every other place gets
    /// that category's next best recent review (cold start's worth). A place whose category has no review left is
    /// left to the walk. Places are explored when their category is not one the viewer has shown a taste for.
    /// `mixedPlaces` draws the categories, `mixedPlan` sets the reviews.
    func mixedPlaces<G: RandomNumberGenerator>(_ state: ViewerState, using generator: inout G) -> [FeedPlanner.Place] {
        let scores = Dictionary(state.interests.map { ($0.categoryID, $0.score) }) { a, _ in a }
        let affinities = state.arms.map { Affinity(arm: $0, interest: scores[$0.categoryID] ?? 0) }
        let known = Set(ViewerState.shown(state.interests.map { ($0.categoryID, $0.score) }))
        var places = FeedPlanner.mixed(
            affinities, exploring: explorePlaces, top: state.interests.first?.categoryID, using: &generator)
        for index in places.indices where known.contains(places[index].category) { places[index].exploring = false }
        return places
    }

    func mixedPlan(
        _ state: ViewerState, places: [FeedPlanner.Place], reviews: [FeedCandidates.Review], radius: Double?
    ) -> FeedRepository.Plan {
        let current = state.interests.prefix(FeedRepository.maxCategories)
        let ordering = FeedRepository.Ordering(categories: current.map { ($0.categoryID, $0.score) })
        var pool = FeedCandidates.Pool(reviews, radius: radius)
        let walked = current.first?.categoryID
        var plan = FeedRepository.Plan(ordering: ordering)
        for (index, place) in places.enumerated() where place.category != walked {
            guard let best = pool.next(of: place.category) else { continue }
            plan.pinned[index] = reviews[best].id
            if place.exploring { plan.exploring.insert(index) }
        }
        return plan
    }
}
