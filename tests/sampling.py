"""A pytest plugin: `-p sampling --sample-every N` keeps every N-th collected
test, so a slow configuration (guard pages) can cover every table file in a
bounded time."""


def pytest_addoption(parser):
    parser.addoption("--sample-every", type=int, default=1,
                     help="run only every N-th collected test")


def pytest_collection_modifyitems(config, items):
    k = config.getoption("--sample-every")
    if k > 1:
        config.hook.pytest_deselected(items=[t for i, t in enumerate(items) if i % k])
        items[:] = items[::k]
