"""dnnl.error (oneDNN's dnnl::error): the exception every failing call of the
object layer raises."""

import dnnl_c as c


class error(Exception):
    """What a failing call of the object layer raises: `status` is the
    dnnl_status_t (dnnl.status), `message` says what failed and why.
    oneDNN's dnnl::error."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.message = message

    def what(self):
        """The message, as C++'s what()."""
        return self.message

    @staticmethod
    def wrap_c_api(status, message):
        """Raises error(status, message + the library's reason) unless
        status is dnnl_success."""
        if status != c.dnnl_success:
            reason = c.cydnnl_last_error()
            raise error(status, "%s: %s" % (message, reason) if reason else message)

    def __repr__(self):
        return "dnnl.error(%s, %r)" % (c.dnnl_status2str(self.status), self.message)

    def __reduce__(self):
        return (error, (self.status, self.message))


error.__module__ = "dnnl"     # where pickle finds it
