#include "server/http/connection.hpp"

namespace lcg::http {

template class connection<tcp_socket>;

}
