dependencies {
    implementation("io.zklock:zklock-spring-boot-starter:0.1.0-SNAPSHOT")
}
