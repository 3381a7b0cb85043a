"""The command line against a real embedded Redis in a temporary data directory."""

from __future__ import annotations

import json
import subprocess
import sys


def referee(*args: str, cwd=None) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "referee.cli", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return done


def test_play_is_deterministic_and_ends_with_the_result(tmp_path):
    first = referee("play", "tricky_coin", "--bots", "--seed", "7", "--data-dir", str(tmp_path / "a"))
    second = referee("play", "tricky_coin", "--bots", "--seed", "7", "--data-dir", str(tmp_path / "b"))
    assert first.stdout == second.stdout
    lines = first.stdout.splitlines()
    assert len(lines) > 20  # the public view as it changes
    result = json.loads(lines[-1])
    assert result["standings"][0]["rank"] == 1 and result["winner"] in (0, 1)
    other = referee("play", "tricky_coin", "--bots", "--seed", "8", "--data-dir", str(tmp_path / "a"))
    assert other.stdout != first.stdout


def test_export_and_replay_give_the_same_result(tmp_path):
    data = str(tmp_path / "data")
    played = referee("play", "tricky_coin", "--bots", "--seed", "11", "--data-dir", data)
    table = played.stderr.split("table ", 1)[1].split()[0]
    log = tmp_path / "log.jsonl"
    referee("export", table, "--data-dir", data, "--out", str(log))
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert rows[0]["kind"] == "header" and rows[0]["game"] == "tricky_coin"
    assert [r["v"] for r in rows[1:]] == list(range(1, len(rows)))

    final_public = json.loads(played.stdout.splitlines()[-2])
    for audience in ("public", "dealer", "seat:0"):
        out = referee("replay", str(log), "--as", audience).stdout.splitlines()
        assert json.loads(out[-1]) == json.loads(played.stdout.splitlines()[-1])
        view = json.loads(out[0])
        assert view["audience"] == audience
        if audience == "public":
            assert view == final_public


def test_replay_as_seat_shows_only_that_seats_secrets(tmp_path):
    data = str(tmp_path / "data")
    played = referee("play", "tricky_coin", "--bots", "--seed", "3", "--data-dir", data)
    table = played.stderr.split("table ", 1)[1].split()[0]
    log = tmp_path / "log.jsonl"
    referee("export", table, "--data-dir", data, "--out", str(log))
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    cut = tmp_path / "cut.jsonl"
    # Stop right after a coin was put: that coin is secret except to its seat and the dealer.
    put = next(i for i, r in enumerate(rows) if r.get("event", {}).get("type") == "CoinPut")
    cut.write_text("".join(json.dumps(r) + "\n" for r in rows[: put + 1]))
    seat = rows[put]["event"]["data"]["seat"]
    own = json.loads(referee("replay", str(cut), "--as", f"seat:{seat}").stdout.splitlines()[0])
    other = json.loads(referee("replay", str(cut), "--as", f"seat:{1 - seat}").stdout.splitlines()[0])
    assert own["state"]["seats"][seat]["box"] == [rows[put]["event"]["private"]["coin"]]
    assert "box" not in other["state"]["seats"][seat]


def test_bad_input_gives_a_clear_error(tmp_path):
    done = subprocess.run([sys.executable, "-m", "referee.cli", "export", "no-such-table", "--data-dir",
                           str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "store/no_table" in done.stderr and "테이블이 없습니다" in done.stderr
