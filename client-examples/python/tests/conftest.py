"""The fixture every live test shares: the services of the Damiera server at $DAMIERA_ADDR."""

import pytest

from damiera_client.connection import Services, address_from_environment


@pytest.fixture(scope="session")
def services():
    try:
        address_from_environment()
    except RuntimeError as error:
        pytest.exit(str(error), returncode=2)
    services = Services.from_environment()
    yield services
    services.close()
