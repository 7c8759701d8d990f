"""dnnl.error (oneDNN's dnnl::error): the exception every failing call of the
object layer raises."""

import dnnl_c as c


class error(Exception):
    """oneDNN's dnnl::error: `status` is the dnnl_status_t, `message` says
    what failed and why."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message

    def what(self):
        return self.message

    @staticmethod
    def wrap_c_api(status, message):
        """Raises error(status, message + the library's reason) unless
        status is dnnl_success."""
        if status != c.dnnl_success:
            reason = c.cydnnl_last_error()
            raise error(status, "%s: %s" % (message, reason) if reason else message)
