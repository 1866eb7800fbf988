"""Who is asking by address, and the cache's fixed-window counts."""

import pytest

from smearsite.kernel import ratelimit


@pytest.mark.parametrize(
    "proxies, forwarded, expected",
    [
        (0, "198.51.100.7", "10.0.0.1"),  # no proxy trusted: the header is anyone's to forge
        (1, "203.0.113.5, 198.51.100.7", "198.51.100.7"),  # what our one proxy saw
        (2, "203.0.113.5, 198.51.100.7", "203.0.113.5"),
        (3, "198.51.100.7", "10.0.0.1"),  # fewer hops than proxies: the peer
    ],
)
def test_the_address_is_the_one_the_outermost_trusted_proxy_saw(
    settings, proxies, forwarded, expected
):
    settings.TRUSTED_PROXY_COUNT = proxies

    assert ratelimit.client_address(peer="10.0.0.1", forwarded_for=forwarded) == expected


def test_a_websocket_scope_gives_its_address(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    scope = {"client": ["10.0.0.1", 1234], "headers": [(b"x-forwarded-for", b"198.51.100.7")]}

    assert ratelimit.scope_address(scope) == "198.51.100.7"
    assert ratelimit.scope_address({"client": None, "headers": []}) == "unknown"


def test_allow_counts_each_who_apart_up_to_the_limit(isolated_cache):
    first = [ratelimit.allow("test", "one", limit=3, per_s=60) for _ in range(5)]
    other = ratelimit.allow("test", "two", limit=3, per_s=60)

    assert first == [True, True, True, False, False]
    assert other


def test_a_token_bucket_gives_its_burst_then_its_rate_and_is_full_again_once_refilled():
    now = [10.0]
    bucket = ratelimit.TokenBucket(2, 4.0, clock=lambda: now[0])

    assert [bucket.take() for _ in range(3)] == [True, True, False]
    now[0] += 0.25  # one token back
    assert bucket.take() and not bucket.take() and not bucket.full()
    now[0] += 0.5
    assert bucket.full()


def test_shared_buckets_are_one_per_key_and_forgotten_with_their_last_holder():
    shared = ratelimit.SharedBuckets(1, 0.001)
    first, second = shared.join("session"), shared.join("session")

    assert first is second and first.take() and not second.take()
    shared.leave("session")
    shared.leave("session")
    assert shared.join("session").take()  # a fresh bucket
