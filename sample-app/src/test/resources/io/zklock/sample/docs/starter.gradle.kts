dependencies {
    implementation("io.zklock:zklock-spring-boot-starter:1.0.0")
}
