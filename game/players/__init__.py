"""The players' side: accounts and sign-in, display names people can tell apart, who owns a
seat (a user or a guest), profiles, ratings and leaderboards, match history, and how each
person likes the table drawn."""
