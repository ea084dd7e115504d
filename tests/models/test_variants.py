"""Training a variant in the app: the loss falls, Stop leaves no entry behind, a corrupt entry is
deleted and rebuilt, and a finished entry reloads to the same model after a 'restart'."""

import os
import time

import numpy as np
import pytest

from models import ModelConfig, variants
from models.loading import shipped_tokenizer


@pytest.fixture(scope="module")
def tok():
    return shipped_tokenizer()


def small(tok, arch="decoder", **kw):
    return ModelConfig(arch=arch, vocab_size=tok.vocab_size, n_layers=1, d_model=32, n_heads=2, d_ff=64,
                       max_len=128, **kw)  # fmt: skip


@pytest.mark.parametrize("arch", ["decoder", "encoder", "encoder-decoder"])
def test_a_few_steps_lower_the_held_out_loss(tok, arch):
    seen = []
    _, hist = variants.train(small(tok, arch), tok, seed=0, steps=40, report=seen.append)
    assert hist.val_step[0] == 0 and hist.val_step[-1] == 40
    assert hist.val[-1] < hist.val[0] - 0.5  # from about ln(2048) = 7.6 nats, the uniform guess (still in warm-up)
    assert hist.loss[-1] < hist.loss[0]
    assert seen and seen[-1]["step"] == 40


def test_should_stop_returns_nothing(tok):
    calls = iter(range(100))
    assert variants.train(small(tok), tok, seed=0, steps=40, should_stop=lambda: next(calls) >= 3) is None


def test_key_depends_on_everything_that_sets_the_weights(tok):
    cfg = small(tok)
    keys = {variants.variant_key(cfg, 0), variants.variant_key(cfg, 1), variants.variant_key(cfg, 0, steps=10),
            variants.variant_key(small(tok, positional="rope"), 0)}  # fmt: skip
    assert len(keys) == 4
    assert variants.variant_key(cfg, 0) == variants.variant_key(small(tok), 0)


def test_save_load_round_trip_and_corrupt_entry_is_deleted(tok, tmp_path):
    cfg = small(tok)
    net, hist = variants.train(cfg, tok, seed=0, steps=5)
    path = variants.save(net, hist, 0, variants.entry_path("k", tmp_path))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.pt", "k.snapshots"]  # no temporary file left
    model = variants.load(path, cfg, tok)
    assert model.meta["history"]["val"] == hist.val
    a = model.run("the cats are happy .").attention["decoder.self"]
    b = variants.load(path, cfg, tok).run("the cats are happy .").attention["decoder.self"]
    np.testing.assert_array_equal(a, b)
    for damage in (path.read_bytes()[: len(path.read_bytes()) // 2], os.urandom(4096)):  # truncated, random bytes
        path.write_bytes(damage)
        with pytest.raises(variants.CorruptEntry) as e:
            variants.load(path, cfg, tok)
        assert e.value.kind == "damaged" and e.value.path == path and not path.exists()
        variants.save(net, hist, 0, path)  # rebuilt
    with pytest.raises(variants.CorruptEntry) as e:  # another config never loads silently
        variants.load(path, small(tok, positional="rope"), tok)
    assert e.value.kind == "mismatch" and not path.exists()


def training(jobs, cfg):
    """A run far too long to finish, once its child has reported its first steps."""
    job = jobs.start(cfg, seed=0, steps=100_000)
    end = time.time() + 60
    while not job.history.step and time.time() < end:
        time.sleep(0.05)
    return job


def wait(job, seconds=120):
    end = time.time() + seconds
    while job.state == "running" and time.time() < end:
        time.sleep(0.1)
    return job.state


def test_jobs_train_in_a_child_process_and_survive_a_restart(tok, tmp_path):
    cfg = small(tok)
    jobs = variants.Jobs(tmp_path)
    job = jobs.start(cfg, seed=0, steps=30)
    assert jobs.start(small(tok, positional="rope"), seed=0, steps=30) is job  # one at a time
    assert wait(job) == "done", job.error
    assert job.key in jobs.trained and job.history.val_step[-1] == 30
    again = variants.Jobs(tmp_path)  # a server restart scans the directory once
    assert job.key in again.trained
    model = variants.load(variants.entry_path(job.key, tmp_path), cfg, tok)
    assert model.meta["history"]["val"] == job.history.val


def test_cancel_leaves_no_entry(tok, tmp_path):
    jobs = variants.Jobs(tmp_path)
    job = training(jobs, small(tok))
    jobs.cancel(job.key)
    assert job.state == "cancelled"
    left = lambda: sorted(p.name for p in tmp_path.iterdir())  # noqa: E731
    assert left() == [f"{job.key}.lock"]  # only the (released) lock: an empty file, reused by the next run
    assert job.key not in jobs.trained
    (tmp_path / f"{job.key}.pt.tmp123").write_bytes(b"half")  # a process killed while saving
    assert variants.Jobs(tmp_path).trained == set() and left() == [f"{job.key}.lock"]


@pytest.fixture
def blocked(tmp_path):
    """A cache folder nobody can write, even root (tests run as root here, which ignores permissions): its
    parent is a regular file."""
    (tmp_path / "a-file").write_text("not a folder")
    return tmp_path / "a-file" / "cache"


def test_an_unwritable_cache_is_found_before_training_and_the_model_is_kept_in_memory(tok, blocked):
    cfg = small(tok)
    jobs = variants.Jobs(blocked)
    assert jobs.unwritable == "Not a directory"  # the OS's reason, found at start-up
    job = jobs.start(cfg, seed=0, steps=20)
    assert job.unsaved == "Not a directory"
    assert wait(job) == "done", job.error
    assert job.key in jobs.trained and job.key in jobs.kept
    model = variants.load(variants.entry_path(job.key, blocked), cfg, tok, jobs.kept[job.key])
    assert model.meta["history"]["val"] == job.history.val  # the trained weights, from memory


def test_a_failed_save_sends_the_weights_back_instead_of_losing_them(tok, blocked):
    """The child that cannot write at the end (the folder broke during training) reports why and sends the
    checkpoint on stdout; the same bytes load to the model it trained."""
    import base64
    import json
    import subprocess
    import sys

    cfg = small(tok)
    out = subprocess.run([sys.executable, "-m", "models.variants", json.dumps(cfg.to_dict()), "--steps", "10",
                          "--root", str(blocked)], capture_output=True, text=True, timeout=120)  # fmt: skip
    assert out.returncode == 0, out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    kept = next(m for m in lines if "kept" in m)
    assert kept["unsaved"] and lines[-1]["history"]["step"][-1] == 10
    model = variants.load(blocked / "x.pt", cfg, tok, base64.b64decode(kept["kept"]))
    assert model.meta["history"]["val"] == lines[-1]["history"]["val"]
    assert not blocked.parent.is_dir()  # nothing was written anywhere near it


def test_save_leaves_no_temporary_file_when_the_write_fails(tok, tmp_path):
    net, hist = variants.train(small(tok), tok, seed=0, steps=3)
    path = variants.entry_path("k", tmp_path)
    path.mkdir()  # the rename onto a folder fails after the temporary file was written
    with pytest.raises(OSError):
        variants.save(net, hist, 0, path)
    assert [p.name for p in tmp_path.iterdir()] == ["k.pt"]


def test_two_servers_sharing_a_cache_train_a_variant_once_and_a_third_sees_it(tok, tmp_path):
    """Issue 21: replicas share the variant cache (a volume). Asked at once, one trains and the other waits on
    the variant's lock, then reuses the entry; a server that is only running finds it within WATCH_S."""
    cfg = small(tok)
    one, two, three = variants.Jobs(tmp_path), variants.Jobs(tmp_path), variants.Jobs(tmp_path)
    a = one.start(cfg, seed=0, steps=60)
    end = time.time() + 60
    while not a.history.step and time.time() < end:  # the first has the lock and is training
        time.sleep(0.05)
    b = two.start(cfg, seed=0, steps=60)
    assert wait(a) == "done" and wait(b) == "done", (a.error, b.error)
    # b trained nothing: it waited on the lock (elsewhere) if a was still training when b's child started,
    # else found a's entry at once; either way it used a's run (bench/faults.py shows the waiting case)
    assert b.reused and not a.reused and not a.elsewhere
    assert len(b.history.step) == len(a.history.step) and b.history.val == a.history.val  # the same run, reused
    assert sorted(p.name for p in tmp_path.glob("*.pt")) == [f"{a.key}.pt"]
    end = time.time() + 3 * variants.WATCH_S
    while a.key not in three.trained and time.time() < end:
        time.sleep(0.1)
    assert a.key in three.trained


def test_the_first_click_trains_even_when_the_second_servers_child_starts_first(tok, tmp_path):
    """Issue 31 §2: the lock is taken by the server when the student clicks and handed to its child, so the order
    the children get going in (torch's import takes seconds on a loaded machine) no longer decides. A's child is
    frozen (SIGSTOP) before it runs a line; B's child then runs first, and still waits for A's run."""
    import signal

    cfg = small(tok)
    one, two = variants.Jobs(tmp_path), variants.Jobs(tmp_path)
    a = one.start(cfg, seed=0, steps=30)
    os.kill(a.proc.pid, signal.SIGSTOP)  # A's child gets no CPU: B's child starts first
    try:
        b = two.start(cfg, seed=0, steps=30)
        assert b.elsewhere and not a.elsewhere  # said at the click, before either child printed anything
        time.sleep(3)  # B's child is up by now, and waits on the lock A's server took
        assert not b.history.step and b.state == "running"
    finally:
        os.kill(a.proc.pid, signal.SIGCONT)
    assert wait(a) == "done" and wait(b) == "done", (a.error, b.error)
    assert not a.reused and b.reused
    assert sorted(p.name for p in tmp_path.glob("*.pt")) == [f"{a.key}.pt"]
    assert not variants.held(variants.lock_path(a.key, tmp_path))  # both children gone: the lock went with them


def test_a_second_start_on_a_busy_server_releases_the_lock_it_took(tok, tmp_path):
    """A server already training something drops a second job: the lock it took for it must not linger."""
    cfg = small(tok)
    jobs = variants.Jobs(tmp_path)
    first = training(jobs, cfg)
    dropped_key = variants.variant_key(cfg, 1, 10, "default")  # another seed: another variant
    assert jobs.start(cfg, seed=1, steps=10) is first  # busy: the running job is returned
    assert not variants.held(variants.lock_path(dropped_key, tmp_path))
    first.proc.kill()
    wait(first)


def test_a_killed_child_leaves_no_lock_behind(tok, tmp_path):
    """The lock is the kernel's (flock): a SIGKILLed training child releases it, the next run starts at once."""
    cfg = small(tok)
    jobs = variants.Jobs(tmp_path)
    job = training(jobs, cfg)
    assert variants.held(variants.lock_path(job.key, tmp_path))
    job.proc.kill()
    assert wait(job) == "failed"
    assert not variants.held(variants.lock_path(job.key, tmp_path))
    again = jobs.start(cfg, seed=0, steps=10)
    assert wait(again) == "done" and not again.elsewhere


def test_a_run_that_never_finished_is_known_after_a_restart(tok, tmp_path):
    cfg = small(tok)
    jobs = variants.Jobs(tmp_path)
    job = training(jobs, cfg)
    job.proc.kill()  # as when the server and its child die together
    wait(job)
    restarted = variants.Jobs(tmp_path)
    assert restarted.unfinished == {job.key} and job.key not in restarted.trained
