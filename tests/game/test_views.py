"""The site shell and the rules page (Django test client), and the card partial."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.template import Context, Template, TemplateSyntaxError
from django.test import Client

from game import rules_guide
from game.players import profiles
from game.templatetags.cards import card_face


def main_of(body: str) -> str:
    return body.split('<main class="site-main" id="main">', 1)[1].split("</main>", 1)[0]


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# --- Navigation and layout --------------------------------------------------------


def test_nav_links_every_part_of_the_site(client):
    body = client.get("/").text
    nav = body.split('aria-label="Main"', 1)[1].split("</nav>", 1)[0]

    for href in ("/", "/rules/", "/play/", "/tables/", "/learn/", "/sheets/", "/donate/"):
        assert f'href="{href}"' in nav
    for part in ("Play", "Tables", "Learn", "Score sheet", "Donate"):
        assert re.search(rf"<a [^>]*>{part}</a>", nav)
    assert "soon" not in nav


def test_guest_sees_log_in_and_sign_up_that_come_back_to_this_page(client):
    body = client.get("/rules/").text

    assert 'href="/accounts/login/?next=/rules/"' in body
    assert 'href="/accounts/signup/?next=/rules/"' in body
    assert "Log out" not in body


def test_account_pages_do_not_send_the_guest_back_to_themselves(client):
    body = client.get("/accounts/login/").text

    assert "next=/accounts/login/" not in body


@pytest.mark.django_db
def test_signed_in_nav_shows_the_display_name_and_a_log_out_form(client):
    user = get_user_model().objects.create_user(username="dealer", password="x-7-long-pass")
    profiles.profile_update(user=user, display_name="Dealer <Dan>")
    client.force_login(user)

    body = client.get("/").text

    assert 'href="/accounts/profile/">Dealer &lt;Dan&gt;</a>' in body
    # log-out is a POST with a CSRF token, never a link
    form = re.search(r'<form method="post" action="/accounts/logout/">(.*?)</form>', body, re.S)
    assert form and "csrfmiddlewaretoken" in form.group(1) and "Log out" in form.group(1)
    assert "Sign up</a>" not in body.split("</header>")[0]


def test_layout_has_a_footer_and_is_readable_on_a_phone(client):
    body = client.get("/").text

    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in body
    assert '<footer class="site-footer">' in body
    assert not re.search(r'(src|href)="(https?:)?//', body), "no off-site assets"


# --- Rules page -------------------------------------------------------------------


def test_rules_page_is_linked_and_served(client):
    response = client.get("/rules/")

    assert response.status_code == 200
    assert "<title>Rules · Smear</title>" in response.text
    assert 'href="/rules/" aria-current="page"' in response.text
    assert client.post("/rules/").status_code == 405


@pytest.mark.parametrize(
    ("players", "low", "hidden"),
    [(3, "10", 4), (4, "9", 2), (5, "7", 4), (6, "6", 2), (7, "4", 4), (8, "3", 2)],
)
def test_rules_page_has_the_functional_deck_row(client, players, low, hidden):
    body = client.get("/rules/").text
    row = re.search(rf'<tr data-players="{players}">(.*?)</tr>', body, re.S)

    assert row, f"no row for {players} players"
    cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row.group(1))
    in_play = 4 * (13 - ["2", "3", "4", "5", "6", "7", "8", "9", "10"].index(low)) + 2
    assert cells == [str(players), f"{low} and up", str(in_play), str(hidden)]
    assert in_play - 6 * players == hidden


# The seed's four worked examples: trump, card led, hand, the legal plays.
SEED_EXAMPLES = [
    ("H", "AD", ["9D", "10H", "J1", "KS"], ["9D", "10H", "J1"]),
    ("H", "AH", ["9D", "10H", "J1", "KS"], ["10H", "J1"]),
    ("D", "AD", ["JH", "QH", "AH", "10S", "KS", "J2"], ["J2"]),
]


def test_rules_guide_examples_match_the_house_rules():
    examples = rules_guide.play_examples()

    assert len(examples) == 4
    for example, (trump, led, hand, legal) in zip(examples, SEED_EXAMPLES, strict=False):
        assert (example.trump, example.led, list(example.hand)) == (trump, led, hand)
        assert list(example.legal) == legal
    joker_lead = examples[3]
    assert joker_lead.led in ("J1", "J2")
    assert joker_lead.legal == joker_lead.hand  # a joker lead leaves every card legal


def test_rules_page_draws_the_four_examples_with_playable_cards_marked(client):
    body = client.get("/rules/").text
    figures = re.findall(
        r'<figure class="play-example" data-example="\d">(.*?)</figure>', body, re.S
    )

    assert len(figures) == 4
    for figure, (_, led, hand, legal) in zip(figures, SEED_EXAMPLES, strict=False):
        assert re.search(
            rf'<p class="led">The trick was led with\s*<span [^>]*data-card="{led}"', figure
        )
        shown = re.findall(
            r'class="card [^"]*card--(playable|unplayable)"[^>]*data-card="(\w+)"', figure
        )
        assert [code for _, code in shown] == hand
        assert [code for state, code in shown if state == "playable"] == legal
    assert "every card in your hand is legal" in figures[3]
    assert "unplayable" not in figures[3]


@pytest.mark.parametrize(
    "phrase",
    [
        # the auction
        "once around the table",
        "dealer speaks last",
        "more than the highest bid so far",
        "the dealer must open",
        "does not stop the auction",
        # trump and leads
        "first card of a round may not be a joker",
        # trick resolution
        "The highest trump played wins",
        "the first joker played wins",
        "the highest card of the suit led wins",
        # round points
        "highest trump that was dealt",
        "was dealt the lowest trump in play",
        "If the jack is one of the hidden cards, nobody gets this point",
        "1 point for each joker",
        "10 counts 10, jack 1, queen 2, king 3, ace 4",
        "if two sides tie for the highest total, nobody does",
        # match scoring
        "loses the amount it bid",
        "cannot go past 20",
        "only the side that won the auction can reach 21",
    ],
)
def test_rules_page_explains(client, phrase):
    assert phrase in text_of(main_of(client.get("/rules/").text))


# --- Rules page: a section per preset ----------------------------------------------


def section_of(body: str, preset: str) -> str:
    found = re.search(
        rf'<section id="{preset}" class="preset"(.*?)</section><!-- #{preset} -->', body, re.S
    )
    assert found, f"no section #{preset}"
    return found.group(1)


# points and bids as variants.md's presets table gives them
PRESET_FACTS = [
    ("house", "House rules", ["High", "Low", "Jack", "Joker 1", "Joker 2", "Game"], (1, 6)),
    ("classic", "Classic four-point", ["High", "Low", "Jack", "Game"], (2, 4)),
    ("six_handed", "Six-handed", ["High", "Low", "Jack", "Jick", "Joker", "Game"], (3, 6)),
    (
        "seven_point",
        "Seven-point",
        ["High", "Low", "Jack", "Jick", "High joker", "Low joker", "Game"],
        (2, 7),
    ),
]


def test_rules_page_links_a_section_per_preset_from_its_contents(client):
    body = client.get("/rules/").text
    toc = body.split('aria-label="On this page"', 1)[1].split("</nav>", 1)[0]

    for preset, title, _, _ in PRESET_FACTS:
        assert f'<a href="#{preset}">{title}</a>' in toc
        assert f'<section id="{preset}" class="preset" data-preset="{preset}"' in body
    assert '<a href="#silent">' in toc


@pytest.mark.parametrize(("preset", "title", "points", "bids"), PRESET_FACTS)
def test_each_preset_section_gives_its_points_and_bids(client, preset, title, points, bids):
    section = section_of(client.get("/rules/").text, preset)
    text = text_of(section)

    assert f">{title}</h2>" in section
    assert f"Bids {bids[0]} to {bids[1]}, for {len(points)} points: {', '.join(points)}" in text
    if preset != "house":
        assert f"bid from {bids[0]} to {bids[1]}" in text
        assert re.findall(r"<dt>(.*?)</dt>", section) == points


@pytest.mark.parametrize(
    ("preset", "order"),
    [
        ("classic", "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S"),
        ("six_handed", "AS KS QS JS JC J1 10S 9S 8S 7S 6S 5S 4S 3S 2S"),
        ("seven_point", "AS KS QS JS JC J1 J2 10S 9S 8S 7S 6S 5S 4S 3S 2S"),
    ],
)
def test_each_family_section_ranks_the_trumps(client, preset, order):
    section = section_of(client.get("/rules/").text, preset)
    ranked = section.split('<ol class="trump-order"', 1)[1].split("</ol>", 1)[0]

    assert re.findall(r'<li data-card="(\w+)">', ranked) == order.split()


@pytest.mark.parametrize(
    ("preset", "rule", "words"),
    [
        ("classic", "discard_to_six", "every player, the dealer included, discards"),
        ("six_handed", "dealer_takes_pack", "the dealer alone takes the cards left over"),
        ("seven_point", "discard_and_fill", "each of them is dealt from the top of the"),
    ],
)
def test_each_family_section_explains_its_exchange(client, preset, rule, words):
    section = section_of(client.get("/rules/").text, preset)

    assert words in text_of(section)
    assert "no trumping while you hold the suit led" not in text_of(section)
    assert "you may trump even when you hold the suit led" in text_of(section)
    assert "The Schmier rule is an option" in text_of(section)
    assert "If everyone does, the round scores nothing and the same dealer deals again" in (
        text_of(section)
    )
    assert "The highest bidder names trump" in text_of(section)


@pytest.mark.parametrize(
    ("preset", "follows"),
    [
        ("classic", "every trump follows it: while you hold a trump you must play one"),
        ("six_handed", "every trump follows it (the jick and the joker included): while"),
        ("seven_point", "every trump follows it (the jick and the jokers included): while"),
    ],
)
def test_a_trump_lead_is_answered_with_any_trump_the_table_counts(client, preset, follows):
    assert follows in text_of(section_of(client.get("/rules/").text, preset))


def legal_lines(figure: str) -> dict[str, list[str]]:
    lines = dict(re.findall(r'<p class="legal" data-rule="(\w+)">(.*?)</p>', figure, re.S))
    return {rule: re.findall(r"<strong>(.*?)</strong>", line) for rule, line in lines.items()}


def test_the_schmier_example_on_the_page(client):
    # hearts trump, the ace of diamonds led, hand 9D 10H J1 KS
    section = section_of(client.get("/rules/").text, "seven_point")
    figure = re.search(r'data-follow="1">(.*?)</figure>', section, re.S).group(1)

    assert legal_lines(figure) == {
        "trump_any_time": ["9 of diamonds", "10 of hearts", "joker"],
        "schmier": ["9 of diamonds"],
    }


def test_the_jick_follows_hearts_not_diamonds_on_the_page(client):
    section = section_of(client.get("/rules/").text, "six_handed")
    jick = re.search(r'data-follow="2">(.*?)</figure>', section, re.S).group(1)
    trump_lead = re.search(r'data-follow="3">(.*?)</figure>', section, re.S).group(1)

    every = ["jack of diamonds", "10 of hearts", "king of spades", "queen of clubs"]
    assert legal_lines(jick) == {"trump_any_time": every, "schmier": every}
    trumps = ["jack of diamonds", "3 of hearts", "joker"]
    assert legal_lines(trump_lead) == {"trump_any_time": trumps, "schmier": trumps}


def test_the_classic_discard_keeps_every_trump_on_the_page(client):
    section = section_of(client.get("/rules/").text, "classic")
    figure = re.search(r'data-discard="1">(.*?)</figure>', section, re.S).group(1)

    def row(role):
        found = re.search(rf'data-role="{role}"[^>]*>(.*?)</div>', figure, re.S)
        return re.findall(r'data-card="(\w+)"', found.group(1)) if found else []

    assert "Discard <strong>3</strong> of 9 cards" in figure
    assert row("must-stay") == ["AS", "7S", "2S"]
    assert row("choice") == ["KH", "9H", "4D", "QC", "8C", "3C"]
    assert row("must-go") == []


@pytest.mark.parametrize(
    ("decision", "phrase"),
    [
        ("one-joker", "A table with one joker plays the high joker"),
        ("point-cards", "the jick only at a table that plays one"),
        ("discard-to-six", "may throw the ace or the two of trumps"),
        ("dealer-takes-pack", "the dealer's discard is the round's only discard"),
        ("fill", "always plays both jokers, so its fill never runs short"),
        ("redeal", "there is no trump, no bid and no bidder, and the scores stay as they were"),
        ("bidder-first", "even in a round in which it missed its bid"),
        ("teams", "cutthroat (everyone for themselves) is allowed in every game"),
        ("target", "a game record that states a different target is refused"),
        ("jokers-and-jick", "the top bid becomes the number of points in play"),
        ("schmier", "may be played in every game but the house rules"),
        ("cutthroat", "is allowed in every game"),
        ("target-range", "The target is 5 to 100 points, 21 unless the table chooses another"),
    ],
)
def test_rules_page_says_where_the_seeds_are_silent(client, decision, phrase):
    silent = client.get("/rules/").text.split('<section id="silent"', 1)[1]
    item = re.search(rf'<li data-decision="{decision}">(.*?)</li>', silent, re.S)

    assert item, f"no decision {decision}"
    assert phrase in text_of(item.group(1))


def test_rules_page_shows_what_jokers_do_to_points_and_bids(client):
    silent = client.get("/rules/").text.split('<section id="silent"', 1)[1]
    rows = re.findall(
        r"<tr><th scope=\"row\">(.*?)</th><td>(.*?)</td><td>(.*?)</td>"
        r"<td>(.*?)</td></tr>",
        silent,
    )

    assert ("Classic four-point", "one joker", "High, Low, Jack, Joker, Game", "2 to 5") in rows


# --- The card partial -------------------------------------------------------------


def render(source: str) -> str:
    return Template("{% load cards %}" + source).render(Context({}))


def test_card_ten_of_hearts_is_red_with_its_rank_and_suit():
    html = render('{% card "10H" %}')

    assert 'class="card card--red"' in html
    assert 'aria-label="10 of hearts"' in html
    assert ">10<" in html and "\u2665" in html


def test_card_ace_of_spades_is_black():
    html = render('{% card "as" %}')

    assert 'class="card card--black"' in html
    assert 'aria-label="ace of spades"' in html and 'data-card="AS"' in html
    assert "\u2660" in html


def test_jokers_are_drawn_distinctly_and_named_joker():
    for code in ("J1", "J2"):
        html = render(f'{{% card "{code}" %}}')
        assert 'class="card card--joker"' in html
        assert 'aria-label="joker"' in html
        assert "Joker" in html
        assert not any(suit in html for suit in "\u2660\u2665\u2666\u2663")


def test_card_states_show_and_say_whether_a_card_may_be_played():
    assert 'card--playable" role="img" aria-label="queen of diamonds, can be played"' in render(
        '{% card "QD" "playable" %}'
    )
    assert "king of clubs, cannot be played" in render('{% card "KC" state="unplayable" %}')
    with pytest.raises(TemplateSyntaxError):
        render('{% card "KC" "maybe" %}')


def test_a_hand_to_play_from_makes_buttons_of_its_playable_cards_only():
    html = Template("{% load cards %}{% hand_cards hand playing=True %}").render(
        Context({"hand": (("10H", True), ("AS", False))})
    )

    assert re.findall(
        r'<button type="submit" class="card-button" name="action" value="(\w+)">', html
    ) == ["10H"]
    assert "10 of hearts, can be played" in html
    assert '<span class="card-slot">' in html and "ace of spades, cannot be played" in html


def test_a_hand_not_to_play_from_is_plain_cards_in_order():
    html = Template("{% load cards %}{% hand_cards hand %}").render(
        Context({"hand": (("QD", True), ("J1", False))})
    )

    assert "button" not in html and "card-slot" not in html and "played" not in html
    assert re.findall(r'data-card="(\w+)"', html) == ["QD", "J1"]


def test_card_face_filter_and_unknown_codes():
    face = card_face("JD")
    assert (face.rank, face.colour, face.label) == ("J", "red", "jack of diamonds")
    with pytest.raises(ValueError):
        card_face("11H")


# --- Table settings, and the shell's small things -------------------------------------------


@pytest.mark.django_db
def test_table_settings_are_kept_in_the_session_and_drawn_as_body_classes(client):
    response = client.post(
        "/settings/table",
        {"pref": ["deck-four", "autoplay-single", "made-up"], "next": "/rules/"},
    )
    assert response.status_code == 302 and response.url == "/rules/"

    body = client.get("/rules/").text
    assert '<body class="deck-four autoplay-single"' in body
    assert "made-up" not in body


def test_a_users_table_settings_come_back_at_log_in_on_another_device(client, make_user):
    user = make_user("ada")
    client.force_login(user)
    client.post("/settings/table", {"pref": ["cards-large"], "next": "/rules/"})

    elsewhere = Client()
    assert '<body class=""' in elsewhere.get("/").text
    elsewhere.post("/accounts/login/", {"login": "ada", "password": "not-used-123"})
    assert '<body class="cards-large"' in elsewhere.get("/").text


def test_a_guest_who_logs_in_keeps_their_settings_until_the_user_saves_some(client, make_user):
    make_user("bea")
    client.post("/settings/table", {"pref": ["deck-four"], "next": "/rules/"})

    client.post("/accounts/login/", {"login": "bea", "password": "not-used-123"})

    assert '<body class="deck-four"' in client.get("/").text


@pytest.mark.django_db
def test_table_settings_never_send_you_to_another_site(client):
    response = client.post("/settings/table", {"pref": [], "next": "https://evil.example/"})

    assert response.status_code == 302 and response.url == "/play/"
    assert '<body class=""' in client.get("/").text


def test_every_page_names_its_icon_so_no_browser_asks_for_favicon_ico(client):
    assert 'rel="icon" href="/static/favicon.svg"' in client.get("/").text


def test_log_in_offers_a_password_reset_once(client):
    assert client.get("/accounts/login/").text.count("Forgot your password?") == 1


def test_home_links_the_trainer_the_tutorial_and_the_score_sheet(client):
    home = main_of(client.get("/").text)

    for href in ('href="/learn/"', 'href="/learn/tutorial/"', 'href="/sheets/"'):
        assert href in home
    assert "on their way" not in home
