"""A question page's answer form filled as a student would, whatever the question's kind: shared
by the load generators (Benchmarks/capacity_locust.py, deploy/cluster_test.py)."""
import html
import random
import re

FIELD = re.compile(r'name="([a-z_0-9]+)" value="([^"]*)"')


def fields(page):
    """The page's named fields with a value (hidden inputs, the form's tokens)."""
    return dict(FIELD.findall(page))


def answer_pairs(page, pick=lambda choices: choices[0]):
    """The form's pairs: an order for the positions, a target for every item to match, a typed
    answer, every gap of a cloze text (its first choice, or a typed answer), or a choice (which is also how a hotspot is answered without a script; `pick`
    chooses among the choices). Returns them with the form's answer id."""
    known = fields(page)
    pairs = [(name, known[name]) for name in ("csrf_token", "answer_id", "question", "shown_at") if name in known]
    positions = sorted(set(re.findall(r'name="(position_\d+)"', page)), key=lambda name: int(name.split("_")[1]))
    targets = sorted(set(re.findall(r'name="(target_\d+)"', page)), key=lambda name: int(name.split("_")[1]))
    gaps = sorted(set(re.findall(r'name="(gap_\d+)"', page)), key=lambda name: int(name.split("_")[1]))
    if gaps:
        for name in gaps:
            listed = re.search(r'<select [^>]*name="%s"[^>]*><option value="">[^<]*</option><option value="([^"]*)"' % name, page)
            pairs.append((name, html.unescape(listed.group(1)) if listed else "42"))
    elif positions:
        pairs += [(name, str(place + 1)) for place, name in enumerate(positions)]
    elif targets:
        pairs += [(name, "1") for name in targets]
    elif 'name="answer"' in page:
        pairs.append(("answer", "42"))
    else:
        choices = re.findall(r'name="choice" value="(\d+)"', page)
        pairs.append(("choice", pick(choices) if choices else "0"))
    return pairs, known.get("answer_id")


def random_pick(choices):
    return random.choice(choices)
