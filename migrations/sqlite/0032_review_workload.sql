-- The review workload: the oldest and the median time in each status (by when the application
-- entered it), and the decisions per hour of the last days.
CREATE INDEX applications_status_updated ON applications (status, updated_at);
CREATE INDEX application_transitions_to_at ON application_transitions (to_status, at);
